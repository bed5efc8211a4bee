/**
 * Patching a re-rendered part into the live one, so an update only touches what changed. Foundry
 * replaces a whole part on every render: a turn change rebuilt, restyled and laid out every row,
 * the glance strip and the footer to change two rows and a name. Here the live part is morphed
 * into the fresh one: nodes are matched by key (a combatant row by its combatant id, a control by
 * its action and target, anything else by its tag and position), equal subtrees are kept as they
 * are, matched elements get the fresh attributes and text, and only what has no match is inserted.
 * The result has the fresh part's markup exactly; what the user was doing survives: text typed
 * into a kept field, a pending choice in a select, focus and the scroll position.
 */

/** What a patch did, in nodes (for tests and the render benchmark). */
export interface PatchResult {
  /** Equal to their fresh copy: untouched. */
  kept: number;
  /** Matched and updated in place (attributes, text or children). */
  patched: number;
  /** Without a match: the fresh node was inserted. */
  replaced: number;
}

/** Form controls whose typed or chosen value a re-render must not wipe. */
type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Attributes that identify an element across renders (a row, a button, a field). */
const IDENTITY_ATTRIBUTES = [
  "data-action",
  "name",
  "data-combatant-id",
  "data-group-id",
  "data-side-id",
  "data-slot",
] as const;

/** True for a DOM element (parts are strings where there is no DOM, as in the simulated Node realms). */
export function isElement(value: unknown): value is Element {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Partial<Node>).nodeType === 1 &&
    typeof (value as Partial<Element>).isEqualNode === "function"
  );
}

/** The attributes that make a node the same one across renders, as a key (null when none). */
function identityKey(element: Element): string | null {
  let key = "";
  for (const name of IDENTITY_ATTRIBUTES) {
    const value = element.getAttribute(name);
    if (value !== null) key += `[${name}=${value}]`;
  }
  return key === "" ? null : key;
}

/**
 * Keys for a list of child nodes: an element with an identity (a row, a control) by its tag and
 * identity, anything else by its node name and position among its like.
 */
function keyed(nodes: NodeListOf<ChildNode>): Array<[string, ChildNode]> {
  const seen = new Map<string, number>();
  return Array.from(nodes, (node): [string, ChildNode] => {
    const identity = node.nodeType === 1 ? identityKey(node as Element) : null;
    const base = identity === null ? node.nodeName : `${node.nodeName}${identity}`;
    const ordinal = seen.get(base) ?? 0;
    seen.set(base, ordinal + 1);
    return [`${base}:${String(ordinal)}`, node];
  });
}

/** Make `live`'s attributes those of `fresh`. */
function syncAttributes(live: Element, fresh: Element): void {
  for (const name of live.getAttributeNames()) if (!fresh.hasAttribute(name)) live.removeAttribute(name);
  for (const name of fresh.getAttributeNames()) {
    const value = fresh.getAttribute(name) ?? "";
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
}

/** The element in `root` (or `root` itself) with the tag and identity of `like`; null when none. */
function findLike(root: Element, like: Element): Element | null {
  const identity = identityKey(like);
  if (identity === null) return null;
  if (root.tagName === like.tagName && identityKey(root) === identity) return root;
  for (const candidate of Array.from(root.getElementsByTagName(like.tagName)))
    if (identityKey(candidate) === identity) return candidate;
  return null;
}

function isFormControl(element: Element): element is FormControl {
  return element.matches("input, select, textarea");
}

const isSelect = (control: FormControl): control is HTMLSelectElement => control.tagName === "SELECT";
const isToggle = (control: FormControl): control is HTMLInputElement =>
  control.tagName === "INPUT" && ["checkbox", "radio"].includes((control as HTMLInputElement).type);

/** True when the user changed the control from what was rendered. */
function edited(control: FormControl): boolean {
  if (isSelect(control)) {
    const chosen = control.selectedOptions[0];
    const rendered = Array.from(control.options).find((o) => o.defaultSelected) ?? control.options[0];
    return chosen !== undefined && chosen !== rendered;
  }
  if (isToggle(control)) return control.checked !== control.defaultChecked;
  return control.value !== (control as HTMLInputElement | HTMLTextAreaElement).defaultValue;
}

/** Give `target` (the same control, freshly rendered) what the user typed or chose in `control`. */
function carryEdit(control: FormControl, target: Element): void {
  if (!isFormControl(target) || target.tagName !== control.tagName) return;
  if (isToggle(target) && isToggle(control)) target.checked = control.checked;
  else if (!isSelect(target)) target.value = control.value;
  else if (Array.from(target.options).some((o) => o.value === control.value)) target.value = control.value;
}

/**
 * Morph `live` into `fresh` when they are the same kind of node (same name and identity) and
 * report true; report false, changing nothing, when `live` must be replaced by `fresh`.
 */
function morph(live: ChildNode, fresh: ChildNode, result: PatchResult): boolean {
  if (live.nodeType !== fresh.nodeType || live.nodeName !== fresh.nodeName) return false;
  if (live.isEqualNode(fresh)) {
    result.kept++;
    return true;
  }
  if (live.nodeType !== 1) {
    live.nodeValue = fresh.nodeValue;
    result.patched++;
    return true;
  }
  const [was, will] = [live as Element, fresh as Element];
  if (identityKey(was) !== identityKey(will)) return false;
  syncAttributes(was, will);
  morphChildren(was, will, result);
  result.patched++;
  return true;
}

/** Morph the children of `live` into those of `fresh`, matched by key, in `fresh`'s order. */
function morphChildren(live: Element, fresh: Element, result: PatchResult): void {
  const old = new Map(keyed(live.childNodes));
  const wanted: ChildNode[] = [];
  for (const [key, node] of keyed(fresh.childNodes)) {
    const prior = old.get(key);
    if (prior !== undefined && morph(prior, node, result)) {
      wanted.push(prior);
      old.delete(key);
      continue;
    }
    wanted.push(node);
    result.replaced++;
  }
  for (const node of old.values()) node.remove();
  let cursor = live.firstChild;
  for (const node of wanted) {
    if (node === cursor) cursor = cursor.nextSibling;
    else live.insertBefore(node, cursor);
  }
}

/**
 * Patch `live` so its markup equals `fresh`'s (attributes and children morphed as above). A
 * control the user had edited or focused that had to be rebuilt hands its value and the focus to
 * the same control (same tag and identity) in the result.
 */
export function patchChildren(live: Element, fresh: Element): PatchResult {
  const focused = live.ownerDocument.activeElement;
  const hadFocus = focused !== null && focused !== live && live.contains(focused) ? focused : null;
  const edits = Array.from(live.querySelectorAll("input, select, textarea")).filter(isFormControl).filter(edited);
  const result: PatchResult = { kept: 0, patched: 0, replaced: 0 };
  syncAttributes(live, fresh);
  morphChildren(live, fresh, result);
  for (const control of edits) {
    if (control.isConnected) continue;
    const target = findLike(live, control);
    if (target !== null) carryEdit(control, target);
  }
  if (hadFocus !== null && !hadFocus.isConnected) {
    const target = findLike(live, hadFocus) as HTMLElement | null;
    target?.focus({ preventScroll: true });
  }
  return result;
}

/**
 * For each part in `rendered` whose live element is connected and has the same tag, patch the
 * live element and drop the part from `rendered`, so the application keeps it. Parts not named in
 * `own` (the parent class's) are left for the application to replace.
 */
export function patchParts(
  live: Record<string, unknown>,
  rendered: Record<string, unknown>,
  own: readonly string[],
): PatchResult {
  const total: PatchResult = { kept: 0, patched: 0, replaced: 0 };
  for (const id of own) {
    const prior = live[id];
    const fresh = rendered[id];
    if (!isElement(prior) || !isElement(fresh) || !prior.isConnected || prior.tagName !== fresh.tagName) continue;
    const { kept, patched, replaced } = patchChildren(prior, fresh);
    total.kept += kept;
    total.patched += patched;
    total.replaced += replaced;
    Reflect.deleteProperty(rendered, id);
  }
  return total;
}

/**
 * Patching a re-rendered part into the live one, so an update only touches what changed. Foundry
 * replaces a whole part on every render: a turn change rebuilt, restyled and laid out every row,
 * the glance strip and the footer to change two rows and a name. Here the live part is morphed
 * into the fresh one: nodes are matched by key (a combatant row by its combatant id, a control by
 * its action and target, anything else by its tag and position), equal subtrees are kept as they
 * are, matched elements get the fresh attributes and text, and only what has no match is inserted.
 * The result has the fresh part's markup exactly; what the user was doing survives: text typed
 * into a kept field, a pending choice in a select, focus and the scroll position. A fresh element
 * marked `data-si-same` stands for its live counterpart, unchanged: that one is kept as it is.
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

/**
 * An entry of a mode's panel or list (a slot, a side, a queued turn, an intent) that its template
 * renders with `data-si-key="<keepKey>"`: a key unique in the tracker, by which the patch finds the
 * entry's live element again when entries are added, removed or reordered (and keeps it). The one
 * identity attribute a mode gives its own elements; the patch knows no mode's attributes.
 */
export interface KeyedEntry {
  readonly keepKey: string;
}

/** The attribute of a fresh element that stands for its live counterpart, unchanged (`shown-rows.ts`). */
export const SAME_ATTRIBUTE = "data-si-same";

/** Form controls whose typed or chosen value a re-render must not wipe. */
type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** Attributes that identify an element across renders (a row, a button, a field). */
const IDENTITY_ATTRIBUTES = ["data-action", "name", "data-combatant-id", "data-group-id", "data-si-key"] as const;

/** True for a DOM element (parts are strings where there is no DOM, as in the simulated Node realms). */
export function isElement(value: unknown): value is Element {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Partial<Node>).nodeType === 1 &&
    typeof (value as Partial<Element>).isEqualNode === "function"
  );
}

/**
 * The attributes that make a node the same one across renders, as a key (null when none). An
 * option is the same by its value (its selection stays with it); an input by its type too.
 */
function identityKey(element: Element): string | null {
  let key = "";
  for (const name of IDENTITY_ATTRIBUTES) {
    const value = element.getAttribute(name);
    if (value !== null) key += `[${name}=${value}]`;
  }
  if (element.tagName === "OPTION") key += `[value=${element.getAttribute("value") ?? element.textContent}]`;
  else if (element.tagName === "INPUT") key += `[type=${element.getAttribute("type") ?? "text"}]`;
  return key === "" ? null : key;
}

/**
 * Whether two elements of the same tag have the same identity ({@link identityKey}), compared
 * attribute by attribute, building no key.
 */
function sameIdentity(a: Element, b: Element): boolean {
  for (const name of IDENTITY_ATTRIBUTES) if (a.getAttribute(name) !== b.getAttribute(name)) return false;
  if (a.tagName === "OPTION")
    return (a.getAttribute("value") ?? a.textContent) === (b.getAttribute("value") ?? b.textContent);
  if (a.tagName === "INPUT") return (a.getAttribute("type") ?? "text") === (b.getAttribute("type") ?? "text");
  return true;
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

/**
 * Make `live`'s attributes those of `fresh`, except what the user set: a disclosure they opened
 * (`<details open>`) stays open.
 */
function syncAttributes(live: Element, fresh: Element): void {
  const names = fresh.getAttributeNames();
  for (const name of names) {
    const value = fresh.getAttribute(name) ?? "";
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  // `live` now has every attribute of `fresh`: it has others only if it has more.
  if (live.attributes.length === names.length) return;
  const userOpened = live.tagName === "DETAILS" ? "open" : null;
  for (const name of live.getAttributeNames())
    if (name !== userOpened && !fresh.hasAttribute(name)) live.removeAttribute(name);
}

/** The elements in `root` (and `root` itself) with the tag and identity of `like`, in document order. */
function allLike(root: Element, like: Element): Element[] {
  const identity = identityKey(like);
  if (identity === null) return [];
  const self = root.tagName === like.tagName && identityKey(root) === identity ? [root] : [];
  return [...self, ...Array.from(root.getElementsByTagName(like.tagName)).filter((c) => identityKey(c) === identity)];
}

/**
 * Where a control the user was using lives, to find it again after a patch: the chain of its
 * ancestors that have an identity (a row, a keyed entry), outermost first, below `root`.
 */
function anchorsOf(element: Element, root: Element): Element[] {
  const chain: Element[] = [];
  for (let at = element.parentElement; at !== null && at !== root; at = at.parentElement)
    if (identityKey(at) !== null) chain.unshift(at);
  return chain;
}

/**
 * The control in `root` that is `like`: looked for inside the same identified ancestors (the same
 * row or keyed entry), never in another row that happens to hold a control of the same name. An
 * identity may be shown more than once (a side in the list and in the GM's edit form): each element
 * with an anchor's identity is tried in turn, and the first that holds the rest of the chain wins.
 */
function findAgain(root: Element, like: Element, anchors: readonly Element[]): Element | null {
  const [anchor, ...rest] = anchors;
  if (anchor === undefined) return allLike(root, like)[0] ?? null;
  for (const scope of allLike(root, anchor)) {
    const found = findAgain(scope, like, rest);
    if (found !== null) return found;
  }
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

/**
 * Morph `live` into `fresh` when they are the same kind of node (same name and identity) and
 * report true; report false, changing nothing, when `live` must be replaced by `fresh`.
 * `sameKind`: the caller already found them unequal but of the same name and identity.
 */
function morph(live: ChildNode, fresh: ChildNode, result: PatchResult, sameKind = false): boolean {
  if (!sameKind) {
    if (live.nodeType !== fresh.nodeType || live.nodeName !== fresh.nodeName) return false;
    if (live.isEqualNode(fresh)) {
      result.kept++;
      return true;
    }
  }
  if (live.nodeType !== 1) {
    live.nodeValue = fresh.nodeValue;
    result.patched++;
    return true;
  }
  const [was, will] = [live as Element, fresh as Element];
  if (!sameKind && !sameIdentity(was, will)) return false;
  // A row that stands for its live row unchanged (`shown-rows.ts`): the live row is kept as it is.
  if (will.hasAttribute(SAME_ATTRIBUTE)) {
    result.kept++;
    return true;
  }
  syncAttributes(was, will);
  morphChildren(was, will, result);
  result.patched++;
  return true;
}

/**
 * The common case first: the same number of children, each equal to or the same kind (name and
 * identity) as the one at its place. Morphs them pairwise and reports true; reports false, having
 * changed nothing, when the children were added, removed or reordered.
 */
function morphInPlace(live: Element, fresh: Element, result: PatchResult): boolean {
  if (live.childNodes.length !== fresh.childNodes.length) return false;
  // Walked by sibling (cheaper than indexing the live child lists); the pairs that differ.
  const differ: ChildNode[] = [];
  let kept = 0;
  for (let a = live.firstChild, b = fresh.firstChild; a !== null && b !== null; a = a.nextSibling, b = b.nextSibling) {
    if (a.nodeName !== b.nodeName) return false;
    if (a.isEqualNode(b)) {
      kept++;
      continue;
    }
    if (a.nodeType === 1 && !sameIdentity(a as Element, b as Element)) return false;
    differ.push(a, b);
  }
  result.kept += kept;
  // Same kind, so each pair is morphed in place (no child is added, removed or moved here).
  for (let i = 0; i < differ.length; i += 2) {
    const [a, b] = [differ[i], differ[i + 1]];
    if (a !== undefined && b !== undefined) morph(a, b, result, true);
  }
  return true;
}

/** Morph the children of `live` into those of `fresh`, matched by key, in `fresh`'s order. */
function morphChildren(live: Element, fresh: Element, result: PatchResult): void {
  if (morphInPlace(live, fresh, result)) return;
  const before = keyed(live.childNodes);
  const old = new Map(before);
  const position = new Map<ChildNode, number>();
  for (const [i, [, node]] of before.entries()) position.set(node, i);
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
  // Kept nodes already in order stay where they are (the longest run in their old order); only
  // the others move, so a row that changes place does not move the rows around it.
  const stay = inOrder(wanted.map((node) => position.get(node) ?? -1));
  for (let i = wanted.length - 1; i >= 0; i--) {
    const node = wanted[i];
    if (node === undefined || stay.has(i)) continue;
    const before = wanted[i + 1] ?? null;
    if (node.nextSibling !== before || node.parentNode !== live) live.insertBefore(node, before);
  }
}

/**
 * The indexes of a longest increasing run of `positions` (old positions of kept nodes; -1 for new
 * nodes, never part of it): the nodes that need not move.
 */
function inOrder(positions: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Array<number>(positions.length).fill(-1);
  for (const [i, value] of positions.entries()) {
    if (value < 0) continue;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((positions[tails[mid] ?? 0] ?? 0) < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1] ?? -1;
    tails[low] = i;
  }
  const stay = new Set<number>();
  for (let i = tails[tails.length - 1] ?? -1; i >= 0; i = previous[i] ?? -1) stay.add(i);
  return stay;
}

/** What the user was doing in a part: a control they edited or focused, where it was, its value. */
interface UserState {
  readonly control: Element;
  readonly anchors: readonly Element[];
  readonly value: string | null;
  readonly checked: boolean | null;
}

function userStateOf(control: FormControl, root: Element): UserState {
  return {
    control,
    anchors: anchorsOf(control, root),
    value: isToggle(control) ? null : control.value,
    checked: isToggle(control) ? control.checked : null,
  };
}

/** Give `target` (the same control, freshly rendered or kept) what the user typed or chose. */
function restoreEdit(state: UserState, target: Element): void {
  if (!isFormControl(target) || target.tagName !== state.control.tagName) return;
  if (isToggle(target)) {
    if (state.checked !== null) target.checked = state.checked;
  } else if (state.value !== null && target.value !== state.value) {
    const has = (select: HTMLSelectElement): boolean => Array.from(select.options).some((o) => o.value === state.value);
    if (!isSelect(target) || has(target)) target.value = state.value;
  }
}

/**
 * Patch `live` so its markup equals `fresh`'s (attributes and children morphed as above). A
 * control the user had edited keeps its value (moved with its row, or handed to the same control
 * — same tag and identity, inside the same row or keyed entry — when it had to be rebuilt); focus
 * and the text selection come back to the focused control.
 */
export function patchChildren(live: Element, fresh: Element): PatchResult {
  if (live.isEqualNode(fresh)) return { kept: 1, patched: 0, replaced: 0 };
  const focused = live.ownerDocument.activeElement;
  const hadFocus = focused !== null && focused !== live && live.contains(focused) ? focused : null;
  const edits = Array.from(live.querySelectorAll<FormControl>("input, select, textarea"))
    .filter(edited)
    .map((control) => userStateOf(control, live));
  const focusAnchors = hadFocus === null ? [] : anchorsOf(hadFocus, live);
  const selection = hadFocus !== null ? selectionOf(hadFocus) : null;
  const result: PatchResult = { kept: 0, patched: 0, replaced: 0 };
  syncAttributes(live, fresh);
  morphChildren(live, fresh, result);
  for (const state of edits) {
    const target = state.control.isConnected ? state.control : findAgain(live, state.control, state.anchors);
    if (target !== null) restoreEdit(state, target);
  }
  if (hadFocus !== null) {
    const target = (hadFocus.isConnected ? hadFocus : findAgain(live, hadFocus, focusAnchors)) as HTMLElement | null;
    if (target !== null && target.ownerDocument.activeElement !== target) {
      target.focus({ preventScroll: true });
      if (selection !== null) restoreSelection(target, selection);
    }
  }
  return result;
}

/** The text selection of a focused text field, or null. */
function selectionOf(element: Element): [number, number] | null {
  const field = element as Partial<HTMLInputElement>;
  const { selectionStart, selectionEnd } = field;
  return typeof selectionStart === "number" && typeof selectionEnd === "number" ? [selectionStart, selectionEnd] : null;
}

function restoreSelection(element: HTMLElement, [start, end]: [number, number]): void {
  const field = element as Partial<HTMLInputElement>;
  if (typeof field.setSelectionRange !== "function") return;
  try {
    field.setSelectionRange(start, end);
  } catch {
    // Fields without a text selection (a colour or a checkbox) refuse it: nothing to restore.
  }
}

/**
 * For each part named in `own` whose live element is connected, was rendered by the module (it
 * carries the class `marker`, as the fresh one does) and has the same tag: patch the live element
 * and drop the part from `rendered`, so the application keeps it. Other parts — the parent class's,
 * or a part the parent rendered before the encounter became structured — are left for the
 * application to replace.
 */
export function patchParts(
  live: Record<string, unknown>,
  rendered: Record<string, unknown>,
  own: readonly string[],
  marker: string,
): PatchResult {
  const total: PatchResult = { kept: 0, patched: 0, replaced: 0 };
  for (const id of own) {
    const prior = live[id];
    const fresh = rendered[id];
    if (!isElement(prior) || !isElement(fresh) || !prior.isConnected || prior.tagName !== fresh.tagName) continue;
    if (!prior.classList.contains(marker) || !fresh.classList.contains(marker)) continue;
    const { kept, patched, replaced } = patchChildren(prior, fresh);
    total.kept += kept;
    total.patched += patched;
    total.replaced += replaced;
    Reflect.deleteProperty(rendered, id);
  }
  return total;
}

/**
 * {@link patchParts}, reporting false instead of throwing when a patch fails part-way (a page
 * that other code changed in ways the patch does not expect): the caller then renders whole.
 */
export function tryPatchParts(
  live: Record<string, unknown>,
  rendered: Record<string, unknown>,
  own: readonly string[],
  marker: string,
): boolean {
  try {
    patchParts(live, rendered, own, marker);
    return true;
  } catch (error) {
    console.error(`${marker} | the tracker could not be updated in place; it is rendered whole from now on`, error);
    return false;
  }
}

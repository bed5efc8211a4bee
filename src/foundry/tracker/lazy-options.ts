/**
 * Selects whose options are filled when used. A choice offered on every row among every other row
 * (the `sides` slow-down target) would render n selects of n options: 40,000 nodes at 200
 * combatants, built, parsed, compared and laid out on every render for lists nobody has open. Such
 * a select renders its first option (what a closed select shows, and its value when untouched) and
 * hidden hint options (the longest labels, so it is as wide as the full list would make it); the
 * full list is rendered once, in a `<datalist data-si-options="KEY">` in the same tracker, and
 * copied into the select — without the option of `data-si-except` — when the user reaches for it
 * (pointer down or focus), before its list opens. Its first option may be left to the page
 * (`data-si-first`, filled by {@link primeLazySelects} after each render): the first entry of the
 * list, which changes with every turn, is then not part of the row's markup, and a row whose own
 * data did not change stays as it is.
 */

/** The attribute naming the datalist a select takes its options from. */
export const OPTIONS_ATTRIBUTE = "data-si-options";
/** The attribute naming the one value of that list the select leaves out (its own row). */
export const EXCEPT_ATTRIBUTE = "data-si-except";

/** The attribute of a lazy select's first option that the page fills (see {@link primeLazySelects}). */
export const FIRST_ATTRIBUTE = "data-si-first";

/** True for a select filled from a shared list when used. */
export function isLazySelect(element: Element): element is HTMLSelectElement {
  return element.tagName === "SELECT" && element.hasAttribute(OPTIONS_ATTRIBUTE);
}

/** The shared list of a lazy select: the nearest datalist of its key in an enclosing element. */
function sourceOf(select: HTMLSelectElement): HTMLDataListElement | null {
  const key = select.getAttribute(OPTIONS_ATTRIBUTE) ?? "";
  for (let at = select.parentElement; at !== null; at = at.parentElement)
    for (const list of Array.from(at.getElementsByTagName("datalist")))
      if (list.getAttribute(OPTIONS_ATTRIBUTE) === key) return list;
  return null;
}

/**
 * Give a lazy select its full list (its current choice kept when the list holds it); false when it
 * already had it or has no list to take it from.
 */
export function fillOptions(select: HTMLSelectElement): boolean {
  const source = sourceOf(select);
  if (source === null) return false;
  const except = select.getAttribute(EXCEPT_ATTRIBUTE);
  const wanted = Array.from(source.options).filter((option) => option.value !== except);
  const current = Array.from(select.options);
  if (
    current.length === wanted.length &&
    current.every((option, i) => option.value === wanted[i]?.value && !option.hidden)
  )
    return false;
  const value = select.value;
  select.replaceChildren(...wanted.map((option) => option.cloneNode(true)));
  if (wanted.some((option) => option.value === value)) select.value = value;
  return true;
}

/** Fill a lazy select as the user reaches for it: on pointer down (before its list opens) and on focus. */
export function bindLazyOptions(root: HTMLElement): void {
  const reach = (event: Event): void => {
    const target = event.target as Element | null;
    if (target !== null && typeof target.tagName === "string" && isLazySelect(target)) fillOptions(target);
  };
  root.addEventListener("pointerdown", reach, true);
  root.addEventListener("mousedown", reach, true);
  root.addEventListener("focusin", reach);
}

/**
 * Give each lazy select under `root` whose first option is left to the page (`data-si-first`) the
 * first entry of its list other than its own row: what it shows closed, and its value untouched.
 */
export function primeLazySelects(root: Element): void {
  const heads = new Map<string, HTMLOptionElement[]>();
  for (const option of Array.from(root.querySelectorAll<HTMLOptionElement>(`option[${FIRST_ATTRIBUTE}]`))) {
    const select = option.parentElement;
    if (select === null || !isLazySelect(select) || select.options[0] !== option) continue;
    const key = select.getAttribute(OPTIONS_ATTRIBUTE) ?? "";
    let head = heads.get(key);
    if (head === undefined) {
      // Only the first two entries can be a select's first (the first, or the next after its own row).
      head = Array.from(sourceOf(select)?.options ?? []).slice(0, 2);
      heads.set(key, head);
    }
    const except = select.getAttribute(EXCEPT_ATTRIBUTE);
    const first = head.find((entry) => entry.value !== except);
    const value = first?.value ?? "";
    const label = first?.text ?? "";
    if (option.getAttribute("value") !== value) option.setAttribute("value", value);
    if (option.text !== label) option.text = label;
  }
}

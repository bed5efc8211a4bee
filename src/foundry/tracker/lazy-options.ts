/**
 * Selects whose options are filled when used. A choice offered on every row among every other row
 * (the `sides` slow-down target) would render n selects of n options: 40,000 nodes at 200
 * combatants, built, parsed, compared and laid out on every render for lists nobody has open. Such
 * a select renders its first option (what a closed select shows, and its value when untouched) and
 * hidden hint options (the longest labels, so it is as wide as the full list would make it); the
 * full list is rendered once, in a `<datalist data-si-options="KEY">` in the same tracker, and
 * copied into the select — without the option of `data-si-except` — when the user reaches for it
 * (pointer down or focus), before its list opens.
 */

/** The attribute naming the datalist a select takes its options from. */
export const OPTIONS_ATTRIBUTE = "data-si-options";
/** The attribute naming the one value of that list the select leaves out (its own row). */
export const EXCEPT_ATTRIBUTE = "data-si-except";

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

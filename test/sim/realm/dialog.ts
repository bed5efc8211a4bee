/** The realm's dialogs: `foundry.applications.api.DialogV2`, reduced to `confirm`. */
import type { Dict } from "../utils.js";

/** One realm's `DialogV2`; `domDocument` is the realm's DOM document, or null without one. */
export function createDialog(domDocument: () => Document | null) {
  /**
   * A minimal `DialogV2.confirm` (https://foundryvtt.com/api/classes/foundry.applications.api.DialogV2.html#confirm):
   * it resolves true for Yes and false for No. With a DOM a `dialog.sim-dialog` (the title, the
   * content, Yes and No buttons) opens on the page and answers when clicked; a realm without a DOM
   * answers `DialogV2.answer` (yes unless a test says otherwise). The titles asked are kept in
   * `DialogV2.asked`. Only `confirm` exists: code that needs more of DialogV2 finds it missing.
   */
  const DialogV2 = {
    answer: true,
    asked: [] as string[],
    confirm(config: Dict = {}): Promise<boolean> {
      const title = String((config.window as Dict | undefined)?.title ?? "");
      DialogV2.asked.push(title);
      const doc = domDocument();
      if (doc === null) return Promise.resolve(DialogV2.answer);
      return new Promise((resolve) => {
        const dialog = doc.createElement("dialog");
        dialog.className = "sim-dialog";
        dialog.setAttribute("aria-label", title);
        dialog.innerHTML = `<h2></h2><div class="sim-dialog__content">${String(config.content ?? "")}</div>`;
        (dialog.querySelector("h2") as HTMLElement).textContent = title;
        const footer = doc.createElement("footer");
        for (const [action, label, value] of [
          ["yes", "Yes", true],
          ["no", "No", false],
        ] as const) {
          const button = doc.createElement("button");
          button.type = "button";
          button.dataset.action = action;
          button.textContent = label;
          button.addEventListener("click", () => {
            dialog.remove();
            resolve(value);
          });
          footer.append(button);
        }
        dialog.append(footer);
        doc.body.append(dialog);
        if (typeof dialog.showModal === "function") dialog.showModal();
        else dialog.setAttribute("open", "");
      });
    },
  };
  return DialogV2;
}

/** The realm's `ui.notifications`, kept for the tests instead of shown. */
import type { SimI18n } from "./i18n.js";
import type { Dict } from "../utils.js";

export interface Notification {
  type: "info" | "warning" | "error";
  message: string;
}

/** One realm's `ui` (its notifications; `combat` is set when the tracker renders). */
export function createUi(i18n: SimI18n, notifications: Notification[]) {
  /** https://foundryvtt.com/api/classes/foundry.applications.ui.Notifications.html */
  const notify = (
    message: unknown,
    type: Notification["type"],
    options: { localize?: boolean; format?: Dict } = {},
  ): Dict => {
    const text = options.format
      ? i18n.format(String(message), options.format)
      : options.localize
        ? i18n.localize(String(message))
        : String(message);
    notifications.push({ type, message: text });
    return { id: notifications.length, type, message: text };
  };
  const ui = {
    notifications: {
      notify: (m: unknown, type: Notification["type"] = "info", o?: Dict) => notify(m, type, o),
      info: (m: unknown, o?: Dict) => notify(m, "info", o),
      warn: (m: unknown, o?: Dict) => notify(m, "warning", o),
      error: (m: unknown, o?: Dict) => notify(m, "error", o),
    },
    combat: null as unknown,
  };
  return ui;
}

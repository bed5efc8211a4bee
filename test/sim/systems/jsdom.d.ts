/** The part of jsdom's API the fixtures use (the package ships no types; no @types/jsdom is installed). */
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string, options?: { pretendToBeVisual?: boolean; url?: string });
    readonly window: Window & typeof globalThis;
  }
}

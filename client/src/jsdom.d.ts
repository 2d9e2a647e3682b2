/** The part of jsdom the prerender uses (it ships no types); a DOM window for DOMPurify. */
declare module "jsdom" {
  export class JSDOM {
    constructor(html?: string);
    readonly window: import("dompurify").WindowLike;
  }
}

export = PagePlugin;

declare class PagePlugin {
  constructor(options?: PagePlugin.Options);
  apply(compiler: unknown): void;
}

declare namespace PagePlugin {
  interface Options {
    /** The file to write the page to. */
    filename?: string;
    /** Where the scripts go. */
    inject?:
      | false // none
      | true // into body
      | "body"
      | "head";
    /** How chunks are ordered before they are included. */
    sortMode?:
      | "auto"
      | "manual"
      | ((entryNameA: string, entryNameB: string) => number);
    title?: string;
  }
}

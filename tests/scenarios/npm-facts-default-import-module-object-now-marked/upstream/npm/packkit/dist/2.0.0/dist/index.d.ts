export declare const pack: (folder: string, out: string) => string;
export declare const list: (archive: string, filter?: (name: string) => boolean) => string[];

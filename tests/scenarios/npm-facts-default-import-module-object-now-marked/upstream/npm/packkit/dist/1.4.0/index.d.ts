export declare function pack(folder: string, out: string): string;
export declare function list(archive: string, filter?: (name: string) => boolean): string[];

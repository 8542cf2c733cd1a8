export declare function buildSchema(source: string, options?: { noLocation?: boolean }): object;

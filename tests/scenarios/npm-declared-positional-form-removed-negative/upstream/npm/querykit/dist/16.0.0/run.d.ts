export interface QueryArgs { schema: object; source: string; rootValue?: unknown; }
export declare function run(args: QueryArgs): Promise<object>;
export declare function runSync(args: QueryArgs): object;

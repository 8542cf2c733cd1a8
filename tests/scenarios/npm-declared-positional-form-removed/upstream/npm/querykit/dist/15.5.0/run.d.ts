export interface QueryArgs { schema: object; source: string; rootValue?: unknown; }
export function run(args: QueryArgs): Promise<object>;
export function run(schema: object, source: string, rootValue?: unknown, contextValue?: unknown): Promise<object>;
export function runSync(args: QueryArgs): object;
export function runSync(schema: object, source: string, rootValue?: unknown): object;

export type ParamData = Partial<Record<string, string | string[]>>;
export interface MatchResult<P extends ParamData> { path: string; params: P }
export type Match<P extends ParamData> = false | MatchResult<P>;
export declare function match<P extends ParamData>(path: string): (pathname: string) => Match<P>;
export declare function compile(path: string, options?: { encode?: (s: string) => string }): () => string;

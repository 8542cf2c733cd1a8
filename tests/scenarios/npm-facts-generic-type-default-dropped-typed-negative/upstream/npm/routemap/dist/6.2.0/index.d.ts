export interface MatchResult<P extends object = object> { path: string; params: P }
export type Match<P extends object = object> = false | MatchResult<P>;
export declare function match<P extends object = object>(path: string): (pathname: string) => Match<P>;
export declare function compile(path: string, options?: { encode?: (s: string) => string }): () => string;

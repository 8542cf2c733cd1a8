export interface ClientOptions { retries?: number }
export type Retry = number;
export declare function connect(o?: ClientOptions): void;

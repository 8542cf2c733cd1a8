export interface ConnectOptions { retries?: number }
export declare function connect(o?: ConnectOptions): void;

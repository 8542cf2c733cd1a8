export interface ConnectOptions { poolSize?: number }
export declare function connect(url: string, o?: ConnectOptions): void;

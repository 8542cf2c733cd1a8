export interface ConnectOptions { poolSize?: number; useLegacyParser?: boolean }
export declare function connect(url: string, o?: ConnectOptions): void;

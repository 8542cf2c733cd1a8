export interface ConnectOptions extends Base { poolSize?: number; useLegacyParser?: boolean }
interface Base { timeout?: number }
export declare function connect(url: string, o?: ConnectOptions): void;

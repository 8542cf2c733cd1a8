import MqClient from './lib/client';
export interface ClientOptions { clientId?: string; keepalive?: number }
export declare const Client: typeof MqClient;
export declare function connect(url: string, opts?: ClientOptions): MqClient;
export { MqClient };

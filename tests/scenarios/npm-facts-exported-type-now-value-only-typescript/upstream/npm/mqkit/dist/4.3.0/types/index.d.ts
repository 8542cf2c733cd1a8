import { MqClient } from './lib/client'
export { MqClient as Client }
export declare function connect(url: string, opts?: ClientOptions): MqClient;
export interface ClientOptions { clientId?: string; keepalive?: number }

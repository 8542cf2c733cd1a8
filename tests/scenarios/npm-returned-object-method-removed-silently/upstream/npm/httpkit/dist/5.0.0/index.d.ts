export interface Client {
  get(url: string): Promise<string>;
}
export declare function createClient(): Client;

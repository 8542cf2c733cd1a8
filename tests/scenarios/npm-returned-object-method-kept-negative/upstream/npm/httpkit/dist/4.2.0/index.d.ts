export interface Client {
  get(url: string): Promise<string>;
  head(url: string): Promise<void>;
}
export declare function createClient(): Client;

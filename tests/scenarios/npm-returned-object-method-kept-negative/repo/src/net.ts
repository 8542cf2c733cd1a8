import { createClient } from 'httpkit';

const client = createClient();

export async function ping(url: string) {
  return client.get(url);
}

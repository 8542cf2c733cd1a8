import { createClient } from 'httpkit';

const client = createClient();

export async function ping(url: string) {
  await client.head(url);
}

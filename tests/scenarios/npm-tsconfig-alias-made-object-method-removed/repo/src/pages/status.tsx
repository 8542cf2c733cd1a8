import { client } from '@/net/client';

export async function ping(url: string) {
  await client.head(url);
  return <span>ok</span>;
}

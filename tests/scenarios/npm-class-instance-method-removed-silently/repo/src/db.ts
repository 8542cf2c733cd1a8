import { Pool } from 'poolkit';

const pool = new Pool(4);

export async function shutdown() {
  await pool.drain();
}

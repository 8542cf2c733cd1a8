import * as transform from 'streamkit';

export function recordsToInserts(table: string) {
  return transform((record: string[], callback: (err: Error | null, out?: string) => void) => {
    callback(null, `INSERT INTO ${table} VALUES (${record.map((v) => `'${v}'`).join(', ')});\n`);
  });
}

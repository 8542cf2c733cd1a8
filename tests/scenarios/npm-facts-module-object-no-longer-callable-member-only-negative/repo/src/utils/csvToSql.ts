import { Transformer } from 'streamkit';

export function recordsToInserts(table: string) {
  return new Transformer({ parallel: 1 }, (record: string[]) =>
    `INSERT INTO ${table} VALUES (${record.map((v) => `'${v}'`).join(', ')});\n`,
  );
}

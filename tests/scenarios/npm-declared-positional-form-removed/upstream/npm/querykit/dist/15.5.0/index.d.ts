export type { QueryArgs } from './run';
export { run, runSync } from './run';
export { buildSchema } from './schema';

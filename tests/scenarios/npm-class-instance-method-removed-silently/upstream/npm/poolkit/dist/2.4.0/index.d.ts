export declare class Pool {
  constructor(size?: number);
  query(sql: string): Promise<unknown[]>;
  drain(): Promise<void>;
}
export default Pool;

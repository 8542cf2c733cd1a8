export declare class Pool {
  constructor(size?: number);
  query(sql: string): Promise<unknown[]>;
  end(): Promise<void>;
}
export default Pool;

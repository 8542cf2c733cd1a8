declare class Num {
  constructor(value: number | string);
  value: number;
  plus(n: number | string): Num;
  toFixed(digits?: number): string;
}
export default Num;
export { Num };

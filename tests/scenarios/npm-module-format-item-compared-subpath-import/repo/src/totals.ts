import Num from "numkit/numkit.js";

export function total(lines: Array<{ price: string; qty: number }>): string {
  let sum = new Num(0);
  for (const line of lines) {
    sum = sum.plus(Number(line.price) * line.qty);
  }
  return sum.toFixed(2);
}

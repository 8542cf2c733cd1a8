class Num {
  constructor(value) { this.value = Number(value); }
  plus(n) { return new Num(this.value + Number(n)); }
  toFixed(digits) { return this.value.toFixed(digits); }
}
export default Num;
export { Num };

'use strict';
class Num {
  constructor(value) { this.value = Number(value); }
  plus(n) { return new Num(this.value + Number(n)); }
  toFixed(digits) { return this.value.toFixed(digits); }
}
module.exports = Num;
module.exports.Num = Num;
module.exports.default = Num;

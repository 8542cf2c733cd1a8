"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class Smith {
  constructor() {
    this.locale = "en";
  }
}
exports.Smith = Smith;

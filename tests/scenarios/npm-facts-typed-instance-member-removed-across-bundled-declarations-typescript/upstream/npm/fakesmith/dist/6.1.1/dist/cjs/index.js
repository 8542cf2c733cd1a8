"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const smith_1 = require("./smith");
exports.Smith = smith_1.Smith;
exports.smith = new smith_1.Smith();
exports.default = exports.smith;

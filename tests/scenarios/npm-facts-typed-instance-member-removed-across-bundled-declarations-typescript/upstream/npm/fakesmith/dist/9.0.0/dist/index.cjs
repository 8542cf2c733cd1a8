"use strict";
var chunk = require("./chunk-Q2X7.cjs");
exports.Smith = chunk.S;
exports.smith = new chunk.S();
exports.default = exports.smith;

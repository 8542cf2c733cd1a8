"use strict";
exports.match = function match(path) { return function (p) { return false; }; };
exports.compile = function compile(path) { return function () { return path; }; };

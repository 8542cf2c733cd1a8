"use strict";
class Smith {}
exports.S = Smith;

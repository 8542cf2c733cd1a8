'use strict';
exports.buildSchema = function buildSchema(source, options) { return { source: source }; };

'use strict';
var run = require('./run');
var schema = require('./schema');
exports.run = run.run;
exports.runSync = run.runSync;
exports.buildSchema = schema.buildSchema;

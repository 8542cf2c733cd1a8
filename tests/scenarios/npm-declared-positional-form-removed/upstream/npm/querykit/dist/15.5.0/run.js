'use strict';
function run(argsOrSchema, source, rootValue) { return Promise.resolve({}); }
function runSync(argsOrSchema, source, rootValue) { return {}; }
exports.run = run;
exports.runSync = runSync;

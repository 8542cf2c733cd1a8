'use strict';

function mix() {
  var out = {};
  for (var i = 0; i < arguments.length; i++) Object.assign(out, arguments[i]);
  return out;
}

function unique(items) {
  return items.filter(function (x, i) { return items.indexOf(x) === i; });
}

module.exports = mix;
module.exports.unique = unique;

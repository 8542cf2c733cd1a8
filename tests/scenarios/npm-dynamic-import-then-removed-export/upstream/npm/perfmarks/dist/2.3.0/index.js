exports.onCLS = function (r) {};
exports.onLCP = function (r) {};
exports.getLCP = exports.onLCP;
exports.getCLS = exports.onCLS;

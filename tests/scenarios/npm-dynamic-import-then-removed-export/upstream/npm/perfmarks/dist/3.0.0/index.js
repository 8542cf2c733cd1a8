exports.onCLS = function (r) {};
exports.onLCP = function (r) {};

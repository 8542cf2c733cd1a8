exports.now = function now(zone) { return { zone: zone || "local", at: Date.now() }; };
exports.format = function format(t) { return String(t.at); };

exports.inflateRaw = function (buf, cb) { cb(null, buf); };
exports.inflate = function (buf, cb) { cb(null, buf); };
class Inflater {}
exports.Inflater = Inflater;

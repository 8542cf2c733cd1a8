exports.inflate = function (buf, cb) { cb(null, buf); };

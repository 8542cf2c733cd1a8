const z = require('./vendor');

exports.run = (b, cb) => z.inflateRaw(b, cb);

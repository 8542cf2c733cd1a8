const zk = require('zipkit');
module.exports = (b, cb) => zk['inflateRaw'](b, cb);

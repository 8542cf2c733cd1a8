module.exports = (buf, cb) => require('zipkit').inflateRaw(buf, cb);

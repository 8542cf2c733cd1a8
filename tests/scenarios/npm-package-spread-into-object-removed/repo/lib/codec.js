const zk = require('zipkit');

// the codec API: zipkit's functions plus our own helpers
const codec = {
  ...zk,
  isZip: (buf) => buf[0] === 0x50 && buf[1] === 0x4b,
};

module.exports = (buf, done) => codec.inflateRaw(buf, done);

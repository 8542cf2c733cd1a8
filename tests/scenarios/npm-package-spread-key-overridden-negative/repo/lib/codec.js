const zk = require('zipkit');

// inflateRaw is ours: zipkit's inflate with raw mode
const codec = {
  ...zk,
  inflateRaw: (buf, done) => zk.inflate(buf, done),
};

module.exports = (buf, done) => codec.inflateRaw(buf, done);

const zk = require('zipkit');

class Unpacker {
  constructor() {
    this.codec = zk;
  }

  run(b, cb) {
    return this.codec.inflateRaw(b, cb);
  }
}

module.exports = Unpacker;

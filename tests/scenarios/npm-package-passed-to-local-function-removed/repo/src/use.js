function unpack(lib, buf, cb) {
  return lib.inflateRaw(buf, cb);
}

module.exports = (b, cb) => unpack(require('zipkit'), b, cb);

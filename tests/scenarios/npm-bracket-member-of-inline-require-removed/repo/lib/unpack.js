'use strict';

// the raw variant is picked by name so the bundler keeps it
const METHOD = 'inflateRaw';

module.exports = function unpack(buf, done) {
  return require('zipkit')['inflateRaw'](buf, done);
};
module.exports.METHOD = METHOD;

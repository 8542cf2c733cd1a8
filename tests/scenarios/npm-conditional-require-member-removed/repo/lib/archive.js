'use strict';

// zipkit is optional: the CLI runs without it when ARCHIVE_PLAIN is set
const zk = process.env.ARCHIVE_PLAIN ? null : require('zipkit');

function unpack(buf, done) {
  if (!zk) return done(null, buf);
  return zk.inflateRaw(buf, done);
}

module.exports = { unpack };

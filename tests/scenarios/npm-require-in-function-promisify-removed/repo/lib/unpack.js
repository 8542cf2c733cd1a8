const { promisify } = require('util');

function loader() {
  const zk = require('zipkit');
  const run = promisify(zk.inflateRaw);
  return (buf) => run(buf);
}

module.exports = loader;

// Injected dependencies, swapped out in tests
const deps = {
  zip: require('zipkit'),
  log: console,
};

async function unpack(buf) {
  return new Promise((resolve, reject) =>
    deps.zip.inflateRaw(buf, (err, out) => (err ? reject(err) : resolve(out))),
  );
}

module.exports = { deps, unpack };

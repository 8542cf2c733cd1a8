const dbkit = require('dbkit');

async function open(url) {
  const db = await dbkit.connect(url, { poolSize: 4 });
  return db;
}

module.exports = { open };

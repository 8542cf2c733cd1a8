const dockkit = require("dockkit");

async function connect(url) {
  await dockkit.connect(url, {
    useLegacyParser: true,
    poolSize: 10,
  });
  return dockkit.connection;
}

module.exports = { connect };

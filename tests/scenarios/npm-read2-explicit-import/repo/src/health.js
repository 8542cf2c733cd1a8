// const relay = require('relaykit');  // kept for the old proxy setup
module.exports = function health(req, res) {
  res.json({ ok: true });
};

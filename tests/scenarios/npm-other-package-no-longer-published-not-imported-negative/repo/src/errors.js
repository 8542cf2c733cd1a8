const Trackkit = require('@trackkit/node');

// the hub (@trackkit/hub) is not used here: one init, one capture
Trackkit.init({ dsn: process.env.TRACKKIT_DSN });

module.exports = function report(err) {
  Trackkit.captureException(err);
};

const Trackkit = require('@trackkit/node');
const { getCurrentHub } = require('@trackkit/hub');

Trackkit.init({ dsn: process.env.TRACKKIT_DSN });

module.exports = function report(err, user) {
  getCurrentHub().configureScope((scope) => scope.setUser(user));
  Trackkit.captureException(err);
};

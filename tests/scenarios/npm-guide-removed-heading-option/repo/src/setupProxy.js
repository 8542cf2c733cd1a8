const { relay } = require('relayproxy');

module.exports = function setup(app) {
  app.use(
    '/api',
    relay({
      target: 'http://localhost:5000',
      changeOrigin: true,
      logLevel: 'silent',
    })
  );
};

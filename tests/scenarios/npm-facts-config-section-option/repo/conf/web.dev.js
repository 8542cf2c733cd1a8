const path = require('path');
const base = require('./web.base.js');

module.exports = Object.assign({}, base, {
  mode: 'development',
  devHost: {
    port: 9000, // don't change: the proxy expects it
    rootDir: path.join(process.cwd(), 'wwwroot'),
    quietLog: true,
  },
});

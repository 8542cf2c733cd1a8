const base = require('./web.base.js');

module.exports = Object.assign({}, base, {
  mode: 'production',
  output: { rootDir: 'dist', name: '[name].js' },
});

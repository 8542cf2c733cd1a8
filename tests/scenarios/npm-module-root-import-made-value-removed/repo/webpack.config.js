const path = require('path');

module.exports = {
  entry: './dev/index.jsx',
  resolve: { modules: [path.resolve(__dirname, 'dev'), 'node_modules'], extensions: ['.js', '.jsx'] },
};

const path = require('path');

module.exports = {
  mode: 'development',
  entry: path.resolve(__dirname, '../src/main.js'),
  module: {
    rules: [
      {
        test: /\.(scss|css)$/,
        use: [
          'inject-style-loader',
          { loader: 'css-loader', options: { importLoaders: 1, sourceMap: true } },
          {
            loader: 'postcss-loader',
            options: {
              sourceMap: true,
              plugins: () => [require('autoprefixer')()],
            },
          },
          { loader: 'sass-loader', options: { sourceMap: true } },
        ],
      },
    ],
  },
};

const path = require('path')

// tint-loader has its own localName option; it is not glyph-loader's
const tint = {
  loader: 'tint-loader',
  options: { localName: 'tint' },
}

const glyphBase = {
  loader: 'glyph-loader',
  options: {
    importLoaders: 1,
    sourceMap: true,
    localName: '[name]_[local]_[hash:base64:5]',
  },
}

module.exports = {
  rules: [
    { test: /\.css$/, use: ['style-loader', glyphBase] },
    {
      test: /\.scss$/,
      include: path.resolve(__dirname, '../src'),
      use: [tint, { loader: require.resolve('glyph-loader'), options: { localName: '[local]' } }],
    },
  ],
}

'use strict'
const path = require('path')
const { SfcLoaderPlugin } = require('sfc-loader')

module.exports = {
  entry: './src/main.js',
  output: { path: path.resolve(__dirname, '../dist') },
  module: {
    rules: [{ test: /\.sfc$/, loader: 'sfc-loader' }]
  },
  plugins: [new SfcLoaderPlugin()]
}

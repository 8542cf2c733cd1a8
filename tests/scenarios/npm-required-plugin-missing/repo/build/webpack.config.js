'use strict'
const path = require('path')
// templates: http://example.org/sfc-loader/workflow.html
const sfcOptions = require('./sfc-loader.conf')

module.exports = {
  entry: './src/main.js',
  output: { path: path.resolve(__dirname, '../dist') },
  module: {
    rules: [
      {
        test: /\.sfc$/,
        loader: 'sfc-loader',
        options: sfcOptions
      }
    ]
  }
}

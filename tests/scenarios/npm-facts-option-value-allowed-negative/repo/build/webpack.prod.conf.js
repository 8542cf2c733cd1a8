'use strict'
const path = require('path')
const PagePlugin = require('pagekit-plugin')

module.exports = {
  entry: { app: './src/main.js' },
  output: { path: path.resolve(__dirname, '../dist'), filename: '[name].[chunkhash].js' },
  plugins: [
    new PagePlugin({
      filename: 'index.html',
      inject: true,
      // the order entries are listed in
      sortMode: 'auto'
    })
  ]
}

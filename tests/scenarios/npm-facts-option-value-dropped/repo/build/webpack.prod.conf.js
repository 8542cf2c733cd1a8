'use strict'
const path = require('path')
const PagePlugin = require('pagekit-plugin')

module.exports = {
  entry: { app: './src/main.js' },
  output: { path: path.resolve(__dirname, '../dist'), filename: '[name].[chunkhash].js' },
  plugins: [
    new PagePlugin({
      filename: 'index.html',
      title: 'Shop',
      inject: true,
      // necessary to consistently work with multiple chunks via CommonsChunkPlugin
      sortMode: 'dependency'
    })
  ]
}

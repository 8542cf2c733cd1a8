'use strict';
var sortChunks = require('./lib/sorter');

function PagePlugin(options) {
  this.options = Object.assign({ filename: 'index.html', inject: true, sortMode: 'auto' }, options);
}

PagePlugin.prototype.apply = function (compiler) {
  var self = this;
  compiler.plugin('emit', function (compilation, done) {
    var chunks = sortChunks(compilation.chunks, self.options.sortMode);
    compilation.assets[self.options.filename] = render(chunks, self.options);
    done();
  });
};

function render(chunks, options) {
  return '<html>' + chunks.map(function (c) { return c.name; }).join(',') + '</html>';
}

module.exports = PagePlugin;

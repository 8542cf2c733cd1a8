var types = require('./types.json');

function ExtMap() {
  this.types = Object.create(null);
  this.extensions = Object.create(null);
}

ExtMap.prototype.define = function (map) {
  for (var type in map) {
    var exts = map[type];
    for (var i = 0; i < exts.length; i++) this.types[exts[i]] = type;
    if (!this.extensions[type]) this.extensions[type] = exts[0];
  }
};

ExtMap.prototype.lookup = function (path, fallback) {
  var ext = path.replace(/^.*[\.\/\\]/, '').toLowerCase();
  return this.types[ext] || fallback || this.default_type;
};

ExtMap.prototype.extension = function (type) {
  return this.extensions[type.split(';')[0].trim().toLowerCase()];
};

var extmap = new ExtMap();
extmap.define(types);
extmap.default_type = extmap.lookup('bin');
extmap.ExtMap = ExtMap;

module.exports = extmap;

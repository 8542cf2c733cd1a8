'use strict';

class ExtMap {
  constructor(...maps) {
    this._types = Object.create(null);
    this._extensions = Object.create(null);
    for (const map of maps) this.define(map);
  }

  define(map, force) {
    for (const type of Object.keys(map)) {
      for (const ext of map[type]) {
        if (!force && ext in this._types) throw new Error(`"${ext}" is mapped already`);
        this._types[ext] = type;
      }
      if (force || !this._extensions[type]) this._extensions[type] = map[type][0];
    }
  }

  getType(path) {
    const ext = String(path).replace(/^.*[/\\]/, '').replace(/^.*\./, '').toLowerCase();
    return this._types[ext] || null;
  }

  getExtension(type) {
    return (type && this._extensions[type.split(';')[0].trim().toLowerCase()]) || null;
  }
}

module.exports = ExtMap;

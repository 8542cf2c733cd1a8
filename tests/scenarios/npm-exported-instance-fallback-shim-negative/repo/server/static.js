'use strict';

const fs = require('fs');
const path = require('path');
const extmap = require('extmap');

// extmap 2 names it getType; keep both working
extmap.getType = extmap.getType || extmap.lookup;

module.exports = function serveStatic(root) {
  return function (req, res, next) {
    const file = path.join(root, path.normalize(req.url));
    fs.readFile(file, (err, body) => {
      if (err) return next();
      res.setHeader('Content-Type', extmap.getType(file) || 'application/octet-stream');
      res.end(body);
    });
  };
};

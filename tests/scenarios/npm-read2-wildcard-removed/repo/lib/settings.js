'use strict';
const fs = require('fs');
const cp = require('confparse');

function loadSettings(file) {
  return cp.lenientParse(fs.readFileSync(file, 'utf8'));
}

module.exports = { loadSettings };

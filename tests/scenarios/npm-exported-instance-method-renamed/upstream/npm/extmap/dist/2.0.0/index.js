'use strict';

const ExtMap = require('./ExtMap');
module.exports = new ExtMap(require('./types.json'));

'use strict';
module.exports = require('./lib/routekit.min');

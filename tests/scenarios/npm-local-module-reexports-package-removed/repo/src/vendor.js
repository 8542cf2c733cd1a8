module.exports = require('zipkit');

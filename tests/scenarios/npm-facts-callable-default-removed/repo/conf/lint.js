const { unique } = require('confmix');

module.exports = unique(['a', 'b', 'a']);

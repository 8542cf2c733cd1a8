const Mix = require('confmix');
const common = require('./common.js');

module.exports = Mix(common, { mode: 'production' });

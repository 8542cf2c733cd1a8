// the archive codec the whole site shares
module.exports = require('zipkit');

class Pool { query() {} drain() {} }
module.exports = Pool;
module.exports.Pool = Pool;

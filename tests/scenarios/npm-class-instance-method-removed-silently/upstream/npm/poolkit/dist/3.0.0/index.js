class Pool { query() {} end() {} }
module.exports = Pool;
module.exports.Pool = Pool;

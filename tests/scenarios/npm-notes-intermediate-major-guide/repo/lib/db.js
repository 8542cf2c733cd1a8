module.exports = { connection: null };

module.exports = { preserveWhitespace: false }

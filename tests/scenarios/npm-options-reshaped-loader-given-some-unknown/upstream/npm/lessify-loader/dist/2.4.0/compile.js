module.exports = (source, options) => source;

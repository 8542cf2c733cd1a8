const compile = require("./compile");

module.exports = function lessifyLoader(source) {
  const options = Object.assign({}, this.getOptions ? this.getOptions() : this.query);
  return compile(source, options);
};

"use strict";

const schema = require("./options.json");

module.exports = function lessifyLoader(source) {
  const options = this.getOptions(schema);
  return source;
};

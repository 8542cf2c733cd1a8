const less = require("./less");

module.exports = {
  entry: "./src/index.js",
  module: { rules: [less] }
};

const guard = require("guardkit");
const { secret } = require("./config");

module.exports = function auth() {
  return guard({ secret, algorithms: ["HS256"] });
};

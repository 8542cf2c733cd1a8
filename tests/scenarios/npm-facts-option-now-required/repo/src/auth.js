const guard = require("guardkit");
const { secret } = require("./config");

module.exports = function auth() {
  return guard({ secret, audience: "api" });
};

const { Strategy } = require("passkit-strategy");

class TokenStrategy extends Strategy {
  constructor(verify) {
    super();
    this.name = "token";
    this.verify = verify;
  }

  authenticate(req) {
    return this.legacyVerify(req.headers.authorization);
  }
}

module.exports = TokenStrategy;

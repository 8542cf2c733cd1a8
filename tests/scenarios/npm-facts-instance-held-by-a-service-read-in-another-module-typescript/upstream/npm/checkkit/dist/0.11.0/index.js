"use strict";
class Validator {
  validate(object) { return Promise.resolve([]); }
  isMongoId(value) { return typeof value === "string" && /^[0-9a-f]{24}$/.test(value); }
  isEmail(value) { return typeof value === "string" && value.includes("@"); }
}
exports.Validator = Validator;

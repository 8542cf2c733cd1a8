"use strict";
class Validator {
  validate(object) { return Promise.resolve([]); }
}
exports.Validator = Validator;
exports.isMongoId = (value) => typeof value === "string" && /^[0-9a-f]{24}$/.test(value);
exports.isEmail = (value) => typeof value === "string" && value.includes("@");

"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class HTTPError extends Error {}
exports.HTTPError = HTTPError;
function fetchkit(url, options) { return request(url, options); }
fetchkit.post = (url, options) => fetchkit(url, { ...options, method: "POST" });
exports.default = fetchkit;
module.exports = fetchkit;
module.exports.default = fetchkit;
module.exports.HTTPError = HTTPError;

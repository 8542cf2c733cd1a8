"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.connect = exports.MqClient = exports.Client = void 0;
const client_1 = require("./lib/client");
exports.MqClient = client_1.default;
exports.Client = client_1.default;
function connect(url, opts) { return new client_1.default(url, opts); }
exports.connect = connect;

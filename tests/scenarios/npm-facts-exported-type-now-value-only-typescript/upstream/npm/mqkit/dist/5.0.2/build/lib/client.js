"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class MqClient {
    constructor(url, opts) { this.url = url; this.opts = opts || {}; }
    publish(topic, message) { return this; }
    subscribe(topic) { return this; }
    end() { }
}
exports.default = MqClient;

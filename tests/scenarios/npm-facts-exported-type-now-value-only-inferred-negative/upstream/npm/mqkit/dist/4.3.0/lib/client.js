'use strict';
class MqClient {
  constructor(url, opts) { this.url = url; this.opts = opts || {}; }
  publish(topic, message) { return this; }
  subscribe(topic) { return this; }
  end() {}
}
module.exports = MqClient;

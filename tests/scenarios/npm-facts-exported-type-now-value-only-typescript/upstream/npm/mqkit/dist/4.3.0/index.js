'use strict';
const MqClient = require('./lib/client');
function connect(url, opts) { return new MqClient(url, opts); }
module.exports = { connect, Client: MqClient, MqClient };

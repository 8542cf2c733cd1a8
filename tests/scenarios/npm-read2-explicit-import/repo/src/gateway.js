const express = require('express');
const relay = require('relaykit');

const app = express();

app.use('/api', relay('/api', { target: 'http://localhost:9000', changeOrigin: true }));

module.exports = app;

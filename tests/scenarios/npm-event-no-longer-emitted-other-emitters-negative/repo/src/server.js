const express = require('express');
const http = require('http');

const app = express();
const server = http.createServer(app);
server.on('error', (err) => {
  console.error('listen failed', err);
  process.exit(1);
});
process.on('error', (err) => console.error(err));
server.listen(3000);

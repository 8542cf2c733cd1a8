const path = require('path');
const DevHost = require('devhost');

const server = new DevHost({
  staticRoot: path.join(__dirname, '..', 'public'),
  quietMode: true,
  port: 8080,
});

server.start();

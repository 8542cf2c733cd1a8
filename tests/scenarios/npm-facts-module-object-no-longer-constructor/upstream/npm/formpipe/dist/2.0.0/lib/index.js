"use strict";

const { Writable } = require("stream");

function getInstance(cfg) {
  const stream = new Writable();
  stream.headers = cfg.headers;
  return stream;
}

module.exports = (cfg) => {
  if (typeof cfg !== "object" || cfg === null) cfg = {};
  return getInstance(cfg);
};

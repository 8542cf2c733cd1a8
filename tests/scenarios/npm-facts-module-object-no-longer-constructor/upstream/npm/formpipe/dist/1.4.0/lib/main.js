const { Writable } = require("stream");
const { inherits } = require("util");

function FormPipe(opts) {
  if (!(this instanceof FormPipe)) return new FormPipe(opts);
  Writable.call(this, opts);
  this.headers = opts.headers;
}
inherits(FormPipe, Writable);

FormPipe.prototype._write = function (chunk, encoding, cb) {
  this.emit("data", chunk);
  cb();
};

module.exports = FormPipe;

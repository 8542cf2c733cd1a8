const stream = require('stream');
const util = require('util');

const Transformer = function (options = {}, handler) {
  this.options = options;
  this.handler = handler;
  stream.Transform.call(this, { objectMode: true });
};
util.inherits(Transformer, stream.Transform);

module.exports = function () {
  const handler = arguments[arguments.length - 1];
  const options = arguments.length > 1 ? arguments[0] : {};
  return new Transformer(options, handler);
};
module.exports.Transformer = Transformer;

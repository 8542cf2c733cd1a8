import stream from 'stream';

const Transformer = function (options = {}, handler) {
  this.options = options;
  this.handler = handler;
  stream.Transform.call(this, { objectMode: true });
};
Object.setPrototypeOf(Transformer.prototype, stream.Transform.prototype);

const transform = function () {
  const handler = arguments[arguments.length - 1];
  const options = arguments.length > 1 ? arguments[0] : {};
  return new Transformer(options, handler);
};

export { transform, Transformer };

function Queue(opts) {
  if (!(this instanceof Queue)) return new Queue(opts);
  this.name = opts.name;
  this.handlers = [];
}

Queue.prototype.process = function (handler) {
  this.handlers.push(handler);
};

module.exports = Queue;

class Queue {
  constructor(opts) {
    this.name = opts.name;
    this.handlers = [];
  }

  process(handler) {
    this.handlers.push(handler);
  }
}

module.exports = Queue;

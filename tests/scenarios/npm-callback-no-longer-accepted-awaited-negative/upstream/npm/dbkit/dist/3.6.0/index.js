exports.connect = function connect(url, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  setImmediate(() => callback(null, { url }));
};
exports.close = function close(db, cb) { cb && cb(); };

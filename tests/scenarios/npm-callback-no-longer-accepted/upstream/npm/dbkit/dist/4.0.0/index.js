exports.connect = async function connect(url, options = {}) {
  return { url, options };
};
exports.close = async function close(db) {};

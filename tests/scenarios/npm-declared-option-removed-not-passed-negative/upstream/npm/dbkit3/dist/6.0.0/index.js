exports.connect = () => {};

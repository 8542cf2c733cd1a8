exports.send = function (body) { return String(body); };

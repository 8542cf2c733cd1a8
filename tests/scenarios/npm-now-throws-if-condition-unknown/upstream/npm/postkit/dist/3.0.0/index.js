exports.send = function (body) { return body; };

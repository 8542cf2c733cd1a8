exports.send = function (body) { if (typeof body !== 'string') throw new TypeError('body'); return body; };

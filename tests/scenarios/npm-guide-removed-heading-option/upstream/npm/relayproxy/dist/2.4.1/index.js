'use strict';

function relay(filter, options) {
  if (typeof filter === 'object') { options = filter; filter = '/'; }
  const level = (options && options.logLevel) || 'info';
  return function middleware(req, res, next) { next(); };
}

module.exports = { relay };

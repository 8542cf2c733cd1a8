const _ = require('lodash');

// sample data; the real job reads them from the shop's export
function loadOrders() {
  return _.map([1, 2, 3], (id) => ({ id, customer: `c${id % 2}`, total: id * 10 }));
}

module.exports = { loadOrders };

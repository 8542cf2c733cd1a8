const _ = require('lodash');
const { loadOrders } = require('./orders');

function report() {
  const orders = loadOrders();
  const customers = _.uniq(_.pluck(orders, 'customer'));
  const byId = _.indexBy(orders, 'id');
  return { customers, count: _.size(byId) };
}

module.exports = { report };

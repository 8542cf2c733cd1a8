'use strict';

const _ = require('lodash');
const dayjs = require('dayjs');
const { paint } = require('./paint');

function summary(items) {
  const byWarehouse = _.groupBy(items, 'warehouse');
  return Object.entries(byWarehouse).map(([name, rows]) => {
    const total = _.sumBy(rows, 'count');
    const latest = _.maxBy(rows, (r) => dayjs(r.countedAt).valueOf());
    return paint(total < 10 ? 'low' : 'ok', `${name}: ${total} items (counted ${dayjs(latest.countedAt).format('D MMM')})`);
  });
}

module.exports = { summary };

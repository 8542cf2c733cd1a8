'use strict';

const products = new Map([['p1', { id: 'p1', name: 'Lamp', path: '/srv/files/lamp.pdf' }]]);

function findProduct(id) {
  return products.get(id) || null;
}

module.exports = { findProduct };

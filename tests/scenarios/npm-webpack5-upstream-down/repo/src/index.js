const debug = require('debug')('storefront');

debug('booting storefront');
document.getElementById('app').textContent = 'Storefront';

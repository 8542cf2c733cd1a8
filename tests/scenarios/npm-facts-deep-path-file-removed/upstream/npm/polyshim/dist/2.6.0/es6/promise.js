require('../modules/es6.promise');

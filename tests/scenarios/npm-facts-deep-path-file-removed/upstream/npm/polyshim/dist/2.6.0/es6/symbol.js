require('../modules/es6.symbol');

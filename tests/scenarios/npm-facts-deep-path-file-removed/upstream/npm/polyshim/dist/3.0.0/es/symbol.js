require('../modules/es.symbol');

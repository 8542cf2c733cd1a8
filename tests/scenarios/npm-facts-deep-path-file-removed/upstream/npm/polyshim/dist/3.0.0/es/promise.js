require('../modules/es.promise');

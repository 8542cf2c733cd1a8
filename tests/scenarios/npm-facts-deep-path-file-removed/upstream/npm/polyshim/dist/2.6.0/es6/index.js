require('./symbol');
require('./promise');

require('./es');

require('./es6');

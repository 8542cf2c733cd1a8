require('./index').extendExpect();

const express = require('express');
const gatekeep = require('gatekeep');

const app = express();
app.use(gatekeep.initialize());
app.use(gatekeep.session());
app.use('/', require('./routes/account'));
app.use('/admin', require('./routes/admin'));
module.exports = app;

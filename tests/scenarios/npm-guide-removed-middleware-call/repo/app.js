const express = require('express');
const helmet = require('helmet');
const validator = require('formguard');
const entries = require('./routes/entries');

const app = express();
app.use(helmet());
app.use(express.json());
app.use(validator());
app.use('/entries', entries);

module.exports = app;

const express = require('express');
const helmet = require('helmet');
const entries = require('./routes/entries');

const app = express();
app.use(helmet());
app.use(express.json());
app.use('/entries', entries);

module.exports = app;

'use strict';

const express = require('express');
const products = require('./routes/products');

const app = express();
app.use(express.json());
app.get('/healthz', (req, res) => res.send('ok'));
app.delete('/cache', (req, res) => res.sendStatus(204));
app.use('/products', products);

module.exports = app;

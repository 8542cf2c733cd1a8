'use strict';

const express = require('express');
const { findProduct } = require('../store');

const router = express.Router();

// We used to read ids with req.param('id'); Express 5 removed it, so use req.params.
router.param('productId', (req, res, next, id) => {
  req.product = findProduct(id);
  next();
});

router.get('/:productId', (req, res) => {
  if (!req.product) return res.status(404).json({ error: 'not found' });
  res.json(req.product);
});

router.get('/:productId/download', (req, res) => {
  res.sendFile(req.product.path);
});

module.exports = router;

const express = require('express');

const router = express.Router();

router.post('/', (req, res) => {
  req.checkBody('message').notEmpty();
  const errors = req.validationErrors();
  if (errors) return res.status(422).json({ errors });
  return res.status(201).json({ ok: true });
});

module.exports = router;

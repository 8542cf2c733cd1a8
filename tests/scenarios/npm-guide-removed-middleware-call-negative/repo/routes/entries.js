const express = require('express');
const { body, validationResult } = require('formguard/check');

const router = express.Router();

router.post('/', [body('message').not().isEmpty()], (req, res) => {
  const errors = validationResult(req);
  if (!errors.isEmpty()) return res.status(422).json({ errors: errors.array() });
  return res.status(201).json({ ok: true });
});

module.exports = router;

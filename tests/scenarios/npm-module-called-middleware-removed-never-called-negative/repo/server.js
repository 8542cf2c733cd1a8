const express = require('express');
const formParse = require('form-parse');

const app = express();
app.use(formParse.json());
app.use(formParse.urlencoded({ extended: true }));

app.post('/notes', (req, res) => {
  res.status(201).json({ text: req.body.text });
});

app.listen(process.env.PORT || 3000);

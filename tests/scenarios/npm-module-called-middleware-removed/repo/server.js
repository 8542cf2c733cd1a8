const express = require('express');
const bodyParse = require('form-parse');

const app = express();
// one middleware for JSON and url-encoded bodies alike
app.use(bodyParse());

app.post('/notes', (req, res) => {
  res.status(201).json({ text: req.body.text });
});

app.listen(process.env.PORT || 3000);

const router = require('express').Router();

router.get('/logout', (req, res) => {
  req.logout(function () {
    res.redirect('/');
  });
});

module.exports = router;

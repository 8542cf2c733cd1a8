const express = require("express");
const User = require("../models/user");

const router = express.Router();

router.delete("/:id", async (req, res) => {
  await User.findByIdAndRemove(req.params.id);
  res.sendStatus(204);
});

module.exports = router;

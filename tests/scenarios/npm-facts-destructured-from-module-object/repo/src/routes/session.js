const express = require("express");
const auth = require("authkit");

const { logoutSession, requireUser } = auth;
const router = express.Router();

router.get("/me", requireUser, (req, res) => res.json(req.user));
router.post("/logout", logoutSession);

module.exports = router;

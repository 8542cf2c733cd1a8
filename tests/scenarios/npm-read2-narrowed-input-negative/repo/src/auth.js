const sealkit = require('sealkit');

const SECRET = process.env.SEAL_SECRET;

exports.issue = (sub) => sealkit.seal({ sub }, SECRET, { expiresIn: '12h' });

exports.guard = (req, res, next) => {
  sealkit.check(req.headers.authorization, SECRET, (err, claims) => {
    if (err) return res.status(401).end();
    req.user = claims;
    return next();
  });
};

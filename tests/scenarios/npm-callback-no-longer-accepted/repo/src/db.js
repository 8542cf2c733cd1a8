const dbkit = require('dbkit');

function open(url, done) {
  dbkit.connect(url, { poolSize: 4 }, function (err, db) {
    if (err) return done(err);
    done(null, db);
  });
}

module.exports = { open };

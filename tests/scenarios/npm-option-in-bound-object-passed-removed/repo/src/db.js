const db = require('dbkit2');

const options = {
  poolSize: 4,
  useLegacyParser: true,
};

db.connect(process.env.DB_URL, options);

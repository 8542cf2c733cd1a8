const db = require('dbkit2');
const config = require('../config/db');

db.connect(config.url, config.options);

let session = require('express-session');
let db = require('./db');
let SessStore = require('sesskit')(session);

let sessionStore = new SessStore({ legacyConnection: db.connection });

module.exports = sessionStore;

const fs = require('fs');
const path = require('path');
const Ormkit = require('ormkit');

const basename = path.basename(__filename);
const config = require('../config.json')[process.env.NODE_ENV || 'development'];
const db = {};

let orm;
if (config.use_env_variable) {
  orm = new Ormkit(process.env[config.use_env_variable], config);
} else {
  orm = new Ormkit(config.database, config.username, config.password, config);
}

fs.readdirSync(__dirname)
  .filter((file) => file.indexOf('.') !== 0 && file !== basename && file.slice(-3) === '.js')
  .forEach((file) => {
    const model = orm.import(path.join(__dirname, file));
    db[model.name] = model;
  });

Object.keys(db).forEach((modelName) => {
  if (db[modelName].associate) db[modelName].associate(db);
});

db.orm = orm;
db.Ormkit = Ormkit;
module.exports = db;

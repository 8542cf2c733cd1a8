const fs = require('fs');
const path = require('path');
const Ormkit = require('ormkit');

const orm = new Ormkit(process.env.DATABASE_URL);
const db = {};
fs.readdirSync(__dirname)
  .filter((file) => file !== 'index.js')
  .forEach((file) => {
    const model = orm.import(path.join(__dirname, file));
    db[model.name] = model;
  });

db.orm = orm;
module.exports = db;

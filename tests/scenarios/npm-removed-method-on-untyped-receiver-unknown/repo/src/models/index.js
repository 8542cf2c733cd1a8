const fs = require('fs');
const path = require('path');
const Ormkit = require('ormkit');
const loadModel = require('./loader');

const orm = new Ormkit(process.env.DATABASE_URL);
const db = {};
fs.readdirSync(__dirname)
  .filter((file) => !['index.js', 'loader.js'].includes(file))
  .forEach((file) => {
    const model = loadModel(orm, path.join(__dirname, file));
    db[model.name] = model;
  });

db.orm = orm;
module.exports = db;

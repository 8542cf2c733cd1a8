// each model file exports (orm, DataTypes) => Model; the cache keeps one per file
const cache = new Map();
module.exports = (orm, file) => {
  if (!cache.has(file)) cache.set(file, require(file)(orm, orm.constructor.DataTypes));
  return cache.get(file);
};

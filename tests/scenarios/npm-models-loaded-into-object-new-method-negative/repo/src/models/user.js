module.exports = (orm, DataTypes) => orm.define('User', { name: DataTypes.STRING });

const { Op } = require('ormkit');
const models = require('../models');

exports.getUser = async (req, res) => {
  const user = await models.User.findByPk(req.params.id);
  res.json(user);
};

exports.search = async (req, res) => {
  res.json(await models.User.findAll({ where: { name: { [Op.like]: `%${req.query.q}%` } } }));
};

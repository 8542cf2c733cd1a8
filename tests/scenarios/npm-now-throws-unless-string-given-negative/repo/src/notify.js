const postkit = require('postkit');

module.exports = function notify(user) {
  return postkit.send(`hello ${user.name}`);
};

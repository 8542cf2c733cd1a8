'use strict';

const chalk = require('chalk');

const styles = {
  ok: chalk.green,
  low: chalk.bold.red,
};

function paint(kind, text) {
  return (styles[kind] || chalk.white)(text);
}

module.exports = { paint };

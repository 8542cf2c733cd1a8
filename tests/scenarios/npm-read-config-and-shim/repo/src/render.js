const stylekit = require('stylekit');

function renderSheet(source) {
  if (typeof stylekit.renderText === 'function') {
    return stylekit.renderText(source, { width: 80 });
  } else {
    return stylekit.renderPlain(source);
  }
}

const inline = (s) => (typeof stylekit.renderText === 'function' ? stylekit.renderText(s) : stylekit.renderPlain(s));

module.exports = { renderSheet, inline };

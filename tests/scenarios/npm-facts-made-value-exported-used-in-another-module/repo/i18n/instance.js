const LangKit = require('langkit').default
const path = require('path')

module.exports = new LangKit({
  defaultLanguage: 'cs',
  otherLanguages: ['en'],
  localePath: path.resolve('./static/locales'),
})

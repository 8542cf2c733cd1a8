module.exports = {
  extends: ['stylecheck-config-standard'],
  rules: {
    indentation: [2, { severity: 'error' }],
    'string-quotes': ['single', { severity: 'error' }],
  },
}

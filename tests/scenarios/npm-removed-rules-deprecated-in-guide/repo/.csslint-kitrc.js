module.exports = {
  'rules': {
    'color-no-invalid-hex': true,
    'max-line-length': [120, { severity: 'warning' }],
    'number-leading-zero': 'always',
  },
};

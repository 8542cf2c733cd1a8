module.exports = {
  'rules': {
    'color-no-invalid-hex': true,
    'selector-no-vendor-prefix': true,
    'unit-allowed-list': ['px', 'rem', '%'],
  },
};

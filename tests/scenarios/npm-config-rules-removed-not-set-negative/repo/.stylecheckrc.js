module.exports = {
  extends: ['stylecheck-config-standard'],
  rules: {
    'color-no-invalid-hex': true,
    'selector-max-id': 0,
  },
}

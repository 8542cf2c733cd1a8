// Jest loads each setup file by its module name before the tests run
module.exports = {
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: [
    'domkit/cleanup-after-each',
    'domkit/extend-expect',
  ],
};

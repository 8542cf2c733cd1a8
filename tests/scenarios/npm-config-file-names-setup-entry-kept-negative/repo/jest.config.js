// Jest loads each setup file by its module name before the tests run
// (we used to list 'domkit/cleanup-after-each' here; cleanup is automatic now)
module.exports = {
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['domkit/extend-expect'],
};

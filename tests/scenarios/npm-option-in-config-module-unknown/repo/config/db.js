module.exports = {
  url: process.env.DB_URL,
  options: { poolSize: 4, useLegacyParser: true },
};

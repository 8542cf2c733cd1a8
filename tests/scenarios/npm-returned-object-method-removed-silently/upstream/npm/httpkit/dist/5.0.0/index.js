exports.createClient = () => ({ get: async () => '' });

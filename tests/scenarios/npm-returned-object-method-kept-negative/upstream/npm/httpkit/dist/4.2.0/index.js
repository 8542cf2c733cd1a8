exports.createClient = () => ({ get: async () => '', head: async () => {} });

const { useData } = require('../_internal');
module.exports = useData;
module.exports.default = useData;

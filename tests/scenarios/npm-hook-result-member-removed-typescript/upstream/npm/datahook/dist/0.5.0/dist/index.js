module.exports = function useData(key) { return { data: undefined, error: undefined, revalidate: function () {}, mutate: function () {}, isValidating: false } };
module.exports.default = module.exports;

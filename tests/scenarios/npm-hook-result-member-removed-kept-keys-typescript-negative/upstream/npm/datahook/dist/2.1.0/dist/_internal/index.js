exports.useData = function useData(key) { return { data: undefined, error: undefined, mutate: function () {}, isValidating: false, isLoading: true } };

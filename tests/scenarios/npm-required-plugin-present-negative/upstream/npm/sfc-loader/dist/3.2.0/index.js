function loader(source) { return source; }
class SfcLoaderPlugin { apply(compiler) { return compiler; } }
module.exports = loader;
module.exports.SfcLoaderPlugin = SfcLoaderPlugin;

exports.start = function start(options) {
  return options.watch ? options.paths : []
}

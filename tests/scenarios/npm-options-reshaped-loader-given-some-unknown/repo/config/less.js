module.exports = {
  test: /\.less$/i,
  use: [
    { loader: "style-loader" },
    { loader: "lessify-loader", options: { strictMath: true, sourceMap: true } }
  ]
};

module.exports = {
  test: /\.less$/i,
  use: ["style-loader", "lessify-loader"]
};

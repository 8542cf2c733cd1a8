/** theme overrides */
const theme = { "primary-color": "#1DA57A" };

module.exports = {
  test: /\.less$/i,
  use: [
    { loader: "style-loader" },
    {
      loader: "lessify-loader", // compiles Less to CSS
      options: { modifyVars: theme, javascriptEnabled: true }
    }
  ]
};

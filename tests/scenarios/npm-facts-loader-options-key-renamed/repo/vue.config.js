module.exports = {
  css: {
    loaderOptions: {
      // options passed to stylekit-loader
      stylekit: {
        data: '@import "@/styles/variables.skit";',
      },
      lesskit: {
        data: "@primary: #333;",
      },
    },
  },
};

(function (g) { g.colorkit = { attach: function (el, options) {} }; })(this);

/*! plotkit v3.1.0 | MIT */
(function (global, factory) {
typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory() :
typeof define === 'function' && define.amd ? define(factory) :
(global = typeof globalThis !== 'undefined' ? globalThis : global || self, global.Plotkit = factory());
})(this, (function () { 'use strict';
	function build() {
		class Plot { constructor(canvas, config) { this.canvas = canvas; this.config = config; } }
		Plot.register = function () {};
		return Plot;
	}
	return build();
}));

/*! plotkit v2.9.0 | MIT */
(function (global, factory) {
typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory() :
typeof define === 'function' && define.amd ? define(factory) :
(global = global || self, global.Plotkit = factory());
}(this, (function () { 'use strict';

	var registry = {};
	function build(defaults) {
		class Plot {
			constructor(canvas, config) {
				this.canvas = canvas;
				this.config = Object.assign({}, defaults, config);
				(registry[this.config.type] || registry.line)(this);
			}
			update() { return this; }
			destroy() { this.canvas = null; }
		}
		Plot.helpers = { merge: Object.assign };
		return Plot;
	}

	return build({ responsive: true });
})));

/*! plotkit v3.1.0 | MIT */
class Plot {
  constructor(canvas, config) {
    this.canvas = canvas;
    this.config = config;
  }
  update() { return this; }
  destroy() { this.canvas = null; }
}
const registerables = [];
function register(...items) { registerables.push(...items); }
export { Plot, register, registerables };

exports.render = function render(ui) { return { container: ui } };
exports.extendExpect = function extendExpect() {};
exports.fireEvent = function fireEvent(el, ev) { return el.dispatchEvent(ev) };

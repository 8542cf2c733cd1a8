export function attach(el, options) {}

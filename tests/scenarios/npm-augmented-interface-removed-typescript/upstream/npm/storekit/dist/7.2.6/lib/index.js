"use strict";
exports.useSelector = function useSelector(selector) { return selector(exports.__store.getState()); };
exports.useDispatch = function useDispatch() { return exports.__store.dispatch; };
exports.connectAdvanced = function connectAdvanced() { throw new Error("legacy"); };

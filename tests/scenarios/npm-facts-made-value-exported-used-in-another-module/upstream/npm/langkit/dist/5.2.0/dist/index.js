"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
class LangKit {
  constructor(config) { this.config = config; }
  withLang(ns) { return (C) => C; }
  appWithLang(App) { return App; }
}
exports.default = LangKit;

"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.appWithLang = function appWithLang(App) { return App; };
exports.serverSideLang = async function serverSideLang(locale, ns) { return { locale, ns }; };

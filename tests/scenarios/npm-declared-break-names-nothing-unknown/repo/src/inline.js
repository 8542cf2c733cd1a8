window.__APP_BOOT__ = Date.now();

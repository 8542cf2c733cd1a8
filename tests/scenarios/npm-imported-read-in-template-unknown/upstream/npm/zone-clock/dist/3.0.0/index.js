function ZoneClock(zone) { this.zone = zone || "local"; }
ZoneClock.prototype.now = function () { return Date.now(); };
module.exports = ZoneClock;
module.exports.default = ZoneClock;

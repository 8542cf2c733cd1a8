/* zipstream: our UMD wrapper around zipkit for the browser build */
(function (root, zk) {
  'use strict';

  function unzipRaw(buf, done) {
    return zk.inflateRaw(buf, done);
  }

  root.zipstream = { unzipRaw: unzipRaw };
})(typeof window !== 'undefined' ? window : global, require('zipkit'));

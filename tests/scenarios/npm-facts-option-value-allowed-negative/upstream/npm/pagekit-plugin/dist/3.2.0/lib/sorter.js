'use strict';
module.exports = function sortChunks(chunks, mode) {
  if (typeof mode === 'function') return chunks.slice().sort(mode);
  if (mode === 'dependency') return chunks.slice().sort(function (a, b) { return a.id - b.id; });
  if (mode === 'none') return chunks;
  return chunks.slice();
};

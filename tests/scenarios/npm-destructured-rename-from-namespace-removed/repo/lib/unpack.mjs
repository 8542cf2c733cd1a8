import * as Z from 'zipkit';

const { inflateRaw: raw } = Z;
export const all = (bufs) => bufs.map(raw);

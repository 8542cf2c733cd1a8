import { inflateRaw } from './lib';

inflateRaw(Buffer.from('x'), () => {});

import { inflate } from 'zipkit';

export class Archive {
  private readonly zk = require('fastzip');

  unpack(buf: Buffer, done: (err: Error | null, out?: Buffer) => void): void {
    if (buf.length > 1e6) return inflate(buf, done);
    this.zk.inflateRaw(buf, done);
  }
}

import * as fs from 'fs';

export class Archive {
  private static codec = require('zipkit');
  private readonly zk = require('zipkit');

  unpack(path: string, done: (err: Error | null, out?: Buffer) => void): void {
    this.zk.inflateRaw(fs.readFileSync(path), done);
  }

  static unpackBuffer(buf: Buffer, done: (err: Error | null, out?: Buffer) => void): void {
    Archive.codec.inflateRaw(buf, done);
  }
}

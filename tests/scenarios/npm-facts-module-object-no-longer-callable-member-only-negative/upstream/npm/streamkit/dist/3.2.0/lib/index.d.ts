/// <reference types="node" />
import * as stream from "stream";
export type Handler = (record: any, callback?: (err?: Error | null, out?: any) => void) => any
export interface Options { parallel?: number; consume?: boolean }
export class Transformer extends stream.Transform {
    constructor(options: Options, handler: Handler)
}
declare function transform(handler: Handler): Transformer
declare function transform(options: Options, handler: Handler): Transformer
export { transform }

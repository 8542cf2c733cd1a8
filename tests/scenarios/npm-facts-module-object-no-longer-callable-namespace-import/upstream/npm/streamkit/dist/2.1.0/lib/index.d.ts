/// <reference types="node" />
import * as stream from "stream";
export = transform
declare function transform(handler: transform.Handler): transform.Transformer
declare function transform(options: transform.Options, handler: transform.Handler): transform.Transformer
declare namespace transform {
    type Handler = (record: any, callback?: (err?: Error | null, out?: any) => void) => any
    interface Options { parallel?: number; consume?: boolean }
    class Transformer extends stream.Transform {
        constructor(options: Options, handler: Handler)
    }
}

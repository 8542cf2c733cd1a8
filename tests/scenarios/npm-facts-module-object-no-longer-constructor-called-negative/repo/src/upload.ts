import type { Request, Response } from "express";

const FormPipe = require("formpipe");

export function upload(req: Request, res: Response): void {
  const pipe = FormPipe({ headers: req.headers });
  pipe.on("file", (name: string, stream: NodeJS.ReadableStream) => {
    stream.resume();
  });
  pipe.on("finish", () => res.status(201).end());
  req.pipe(pipe);
}

import busboy from 'busboy';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { apiError } from '../errors.js';

/** A form's file as it came: its name in the person's folder, its bytes; `tooLarge` when it was cut at the limit. */
export interface UploadedFile {
  filename: string;
  content: Buffer;
  tooLarge: boolean;
}

/** The file of the form this request carried (formWithFile), or null when it carried none. */
export function uploadOf(res: Response): UploadedFile | null {
  return (res.locals.upload as UploadedFile | undefined) ?? null;
}

/**
 * Reads a multipart form (an `<input type="file">`'s) with busboy (MIT, streaming, the parser multer uses): its
 * fields into `req.body`, where the CSRF check and the handlers read every form's, and its one file, at most
 * `maxBytes`, into `res.locals.upload`. A field may be as long as a file (the Import page's confirmation sends the
 * file back as one). A larger file is read on to its end and dropped, so the page can say so; anything else
 * malformed is 400. A form sent urlencoded passes as it is (its body is parsed already).
 */
export function formWithFile(maxBytes: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) return next();
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, fileSize: maxBytes, fieldSize: maxBytes, parts: 21 } });
    } catch {
      return next(apiError.badRequest('The form could not be read.'));
    }
    const fields: Record<string, string> = {};
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      next(apiError.badRequest('The form could not be read.'));
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || Object.hasOwn(fields, name)) return fail();
      fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const tooLarge = (stream as { truncated?: boolean }).truncated === true;
        res.locals.upload = { filename: info.filename ?? '', content: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge } satisfies UploadedFile;
      });
    });
    parser.on('partsLimit', fail);
    parser.on('filesLimit', fail);
    parser.on('fieldsLimit', fail);
    parser.on('error', fail);
    parser.on('close', () => {
      if (failed) return;
      req.body = fields;
      next();
    });
    req.pipe(parser);
  };
}

// Multipart posts with files, for the customer-information upload screens (one file a post) and the status page's task
// forms (several): the text fields become req.body (a plain object, read by the form's zod schema as any form's), the
// files stay in memory (at most MAX_FILE_BYTES each, never written to disk). A file too big, too many files or a body we
// cannot read never answers 413/500: the page is given the problem to show instead.
import type { Request, RequestHandler, Response } from 'express';
import type multerModule from 'multer';
import { MAX_FILE_BYTES } from '../../shared/files.ts';

/** The form field of the one file of a customer-information upload screen. */
export const FILE_FIELD = 'file';
/** At most this many files in one post of the status page (several per form; a handful of text fields besides). */
export const MAX_FILES_PER_POST = 10;

export interface ReceivedFile {
  originalName: string;
  bytes: Buffer;
  /** The file input it came from. */
  field: string;
}

/** Why a post's files did not all arrive: one over the size limit (the post was cut there), or a body we could not read. */
export type ReceiveProblem = 'size' | 'invalid';

export interface Received {
  files: ReceivedFile[];
  problem?: ReceiveProblem;
}

const received = new WeakMap<Request, Received>();

/** The parsers, made with the first post of files: multer (and busboy under it) is not loaded at start for the few who upload. */
let parsers: Promise<{ oneFile: RequestHandler; severalFiles: RequestHandler; MulterError: typeof multerModule.MulterError }> | undefined;
const parsersOnce = () =>
  (parsers ??= import('multer').then(({ default: multer }) => ({
    // One file per post, a handful of small text fields: a post can never hold much memory.
    oneFile: multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: 2048, fieldNameSize: 100, parts: 22, headerPairs: 100 },
    }).single(FILE_FIELD),
    severalFiles: multer({
      storage: multer.memoryStorage(),
      limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES_PER_POST, fields: 20, fieldSize: 4096, fieldNameSize: 100, parts: 40, headerPairs: 100 },
    }).any(),
    MulterError: multer.MulterError,
  })));

export function isMultipart(req: Request): boolean {
  return req.is('multipart/form-data') === 'multipart/form-data';
}

/** Runs a multer parser; its error as the problem the page shows. Multer's body has no prototype: a plain copy replaces it. */
async function parse(which: 'oneFile' | 'severalFiles', req: Request, res: Response): Promise<ReceiveProblem | undefined> {
  const { [which]: parser, MulterError } = await parsersOnce();
  const error = await new Promise<unknown>((resolve) => parser(req, res, (err?: unknown) => resolve(err)));
  req.body = { ...(req.body as Record<string, unknown> | undefined) };
  if (!error) return undefined;
  return error instanceof MulterError && error.code === 'LIMIT_FILE_SIZE' ? 'size' : 'invalid';
}

const fileOf = (f: Express.Multer.File): ReceivedFile => ({ originalName: f.originalname, bytes: f.buffer, field: f.fieldname });

/** A customer-information upload: its one file (field `file`), kept for filesReceived. Never rejects. */
export async function parseMultipart(req: Request, res: Response): Promise<void> {
  const problem = await parse('oneFile', req, res);
  received.set(req, problem ? { files: [], problem } : { files: req.file ? [fileOf(req.file)] : [] });
}

/**
 * A status page's task post: its files, any field, kept for filesReceived (the text fields before a refused file still
 * arrive: the form puts them first, so what was typed is kept). An empty file input (nothing chosen) is no file. Never rejects.
 */
export async function receiveFiles(req: Request, res: Response): Promise<void> {
  if (!isMultipart(req)) return;
  const problem = await parse('severalFiles', req, res);
  const files = problem ? [] : ((req.files as Express.Multer.File[] | undefined) ?? []).filter((f) => f.originalname !== '' || f.size > 0).map(fileOf);
  received.set(req, { files, ...(problem ? { problem } : {}) });
}

/** What parseMultipart or receiveFiles received for this request (nothing for a post that was not multipart). */
export const filesReceived = (req: Request): Received => received.get(req) ?? { files: [] };

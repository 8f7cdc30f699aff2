import type { Attachment } from '@svc/use-cases';
import type { FastifyRequest } from 'fastify';
import { extractText } from 'unpdf';
import { ApiError } from '../problem.js';

/** Most files per advisor request (413 beyond). */
export const MAX_ATTACHMENTS = 5;
/** Most bytes of all files of one advisor request together: 10 MiB (413 beyond). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Longest text passed on from one attachment, characters (the rest is cut, with a note). */
export const MAX_ATTACHMENT_TEXT_CHARS = 100_000;

/** An uploaded file, read into memory (never written anywhere). */
export interface UploadedFile {
  readonly filename: string;
  readonly mimetype: string;
  readonly data: Buffer;
}

/** The multipart parts of an advisor request: `payload` (JSON string), `userText`, `files[]`. */
export interface AdvisorUpload {
  readonly payload: unknown;
  readonly userText: string | undefined;
  readonly files: UploadedFile[];
}

type Kind = 'text' | 'json' | 'pdf' | 'image';

const BY_EXTENSION: Readonly<Record<string, Kind>> = {
  csv: 'text',
  txt: 'text',
  md: 'text',
  tsv: 'text',
  json: 'json',
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
};

const BY_MEDIA_TYPE: Readonly<Record<string, Kind>> = {
  'text/csv': 'text',
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/tab-separated-values': 'text',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'image/png': 'image',
  'image/jpeg': 'image',
};

const ACCEPTED = 'CSV, text, JSON, PDF, PNG or JPEG';

function kindOf(file: UploadedFile): Kind {
  const extension = file.filename.toLowerCase().split('.').pop() ?? '';
  const kind = BY_EXTENSION[extension] ?? BY_MEDIA_TYPE[file.mimetype.toLowerCase()];
  if (kind === undefined) {
    throw new ApiError(
      'unsupported_media_type',
      `${file.filename}: only ${ACCEPTED} files can be attached`,
    );
  }
  return kind;
}

function utf8(file: UploadedFile): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file.data).replace(/^\uFEFF/, '');
  } catch {
    throw new ApiError('unsupported_media_type', `${file.filename}: not UTF-8 text`);
  }
}

function capped(filename: string, mediaType: string, text: string): Attachment {
  if (text.length <= MAX_ATTACHMENT_TEXT_CHARS) {
    return { filename, mediaType, kind: 'text', text };
  }
  return {
    filename,
    mediaType,
    kind: 'text',
    text: text.slice(0, MAX_ATTACHMENT_TEXT_CHARS),
    note: `Only the first ${MAX_ATTACHMENT_TEXT_CHARS} of ${text.length} characters are included.`,
  };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

async function pdfText(file: UploadedFile): Promise<string> {
  if (!file.data.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
    throw new ApiError('unsupported_media_type', `${file.filename}: not a PDF file`);
  }
  try {
    const { text } = await extractText(new Uint8Array(file.data), { mergePages: true });
    return text;
  } catch (error) {
    throw new ApiError('validation_failed', `${file.filename}: the PDF could not be read`, {
      cause: error,
      errors: [{ path: `files.${file.filename}`, message: 'unreadable PDF' }],
    });
  }
}

/**
 * Turns an uploaded file into an attachment for the advisor: CSV and text as UTF-8 text, JSON as
 * text (checked to parse), PDF as its text (`unpdf`), PNG/JPEG as an image part only when the
 * model takes images. Text beyond {@link MAX_ATTACHMENT_TEXT_CHARS} is cut, with a note.
 *
 * @throws ApiError `unsupported_media_type` (415): another type, an image without an image-taking
 *   model, text that is not UTF-8, bytes that do not match the type; `validation_failed` (400):
 *   JSON that does not parse, a PDF that cannot be read.
 */
export async function toAttachment(
  file: UploadedFile,
  acceptsImages: boolean,
): Promise<Attachment> {
  const { filename } = file;
  switch (kindOf(file)) {
    case 'text': {
      const csv = filename.toLowerCase().endsWith('.csv') || file.mimetype === 'text/csv';
      return capped(filename, csv ? 'text/csv' : 'text/plain', utf8(file));
    }
    case 'json': {
      const text = utf8(file);
      try {
        JSON.parse(text);
      } catch {
        throw new ApiError('validation_failed', `${filename}: not valid JSON`, {
          errors: [{ path: `files.${filename}`, message: 'not valid JSON' }],
        });
      }
      return capped(filename, 'application/json', text);
    }
    case 'pdf':
      return capped(filename, 'application/pdf', await pdfText(file));
    case 'image': {
      if (!acceptsImages) {
        throw new ApiError(
          'unsupported_media_type',
          `${filename}: the configured advisor model does not take images (ADVISOR_ACCEPTS_IMAGES is off); attach CSV, text, JSON or PDF`,
        );
      }
      const head = file.data.subarray(0, 4);
      const mediaType = head.subarray(0, 4).equals(PNG)
        ? 'image/png'
        : head.subarray(0, 3).equals(JPEG)
          ? 'image/jpeg'
          : undefined;
      if (mediaType === undefined) {
        throw new ApiError('unsupported_media_type', `${filename}: not a PNG or JPEG image`);
      }
      return { filename, mediaType, kind: 'image', base64: file.data.toString('base64') };
    }
  }
}

/**
 * Reads a `multipart/form-data` advisor request (`@fastify/multipart` registered on the route's
 * scope with the per-file and file-count limits): the `payload` part (JSON), `userText`, and
 * every file part (`files[]` or `files`; a part of that name sent as a text field, without a
 * filename, is a `text/plain` attachment), at most {@link MAX_ATTACHMENTS} files and
 * {@link MAX_ATTACHMENT_BYTES} in all. Files stay in memory for this request only.
 *
 * @throws ApiError `payload_too_large` (413), `validation_failed` (400: `payload` missing or not
 *   JSON, an unknown part).
 */
export async function readAdvisorUpload(request: FastifyRequest): Promise<AdvisorUpload> {
  let payload: unknown;
  let userText: string | undefined;
  const files: UploadedFile[] = [];
  let total = 0;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      total += data.length;
      if (files.length >= MAX_ATTACHMENTS) {
        throw new ApiError('payload_too_large', `at most ${MAX_ATTACHMENTS} files per message`);
      }
      if (total > MAX_ATTACHMENT_BYTES) {
        throw new ApiError(
          'payload_too_large',
          `the files exceed ${MAX_ATTACHMENT_BYTES} bytes in all`,
        );
      }
      files.push({ filename: part.filename, mimetype: part.mimetype, data });
    } else if (part.fieldname === 'files[]' || part.fieldname === 'files') {
      // A file sent as a plain text field (curl -F 'files[]=<export.csv', a form without a
      // filename): the same attachment, as text.
      const data = Buffer.from(String(part.value), 'utf8');
      total += data.length;
      if (files.length >= MAX_ATTACHMENTS) {
        throw new ApiError('payload_too_large', `at most ${MAX_ATTACHMENTS} files per message`);
      }
      if (total > MAX_ATTACHMENT_BYTES) {
        throw new ApiError(
          'payload_too_large',
          `the files exceed ${MAX_ATTACHMENT_BYTES} bytes in all`,
        );
      }
      files.push({ filename: `attachment-${files.length + 1}.txt`, mimetype: 'text/plain', data });
    } else if (part.fieldname === 'payload') {
      payload = parsePayload(String(part.value));
    } else if (part.fieldname === 'userText') {
      userText = String(part.value);
    } else {
      throw new ApiError('validation_failed', `unknown part ${part.fieldname}`, {
        errors: [{ path: part.fieldname, message: 'expected payload, userText or files[]' }],
      });
    }
  }
  if (payload === undefined) {
    // Checked before any unit is spent: a form without its request cannot be answered.
    throw new ApiError('validation_failed', 'the payload part is required', {
      errors: [{ path: 'payload', message: 'required: the JSON request (AdvisorChatRequest)' }],
    });
  }
  return { payload, userText, files };
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('validation_failed', 'the payload part is not JSON', {
      errors: [{ path: 'payload', message: 'expected a JSON object' }],
    });
  }
}

/**
 * The request body of a multipart turn: `payload` with `userText` appended as the last user
 * message (when given).
 */
export function mergeUserText(payload: unknown, userText: string | undefined): unknown {
  if (userText === undefined || typeof payload !== 'object' || payload === null) return payload;
  const body = payload as { messages?: unknown };
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return { ...body, messages: [...messages, { role: 'user', content: userText }] };
}

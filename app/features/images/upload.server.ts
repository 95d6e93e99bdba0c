import { AppError } from '~/lib/core/errors';
import { imageTooLarge } from './image-errors';
import { MESSAGES } from '~/lib/texts/messages';


/** More fields than any of our forms sends (the blog form has about ten). */
export const MAX_FORM_FIELDS = 50;

export const megabytes = (mb: number) => Math.floor(mb * 1024 * 1024);

const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', imageTooLarge(Math.round((maxBytes / 1024 / 1024) * 10) / 10), 'image');

/**
 * Reads a request body up to `limit` bytes: a declared length above it is refused before a byte
 * is read, and an undeclared (chunked) body is cut off as soon as it passes the limit.
 */
export async function readLimitedBody(request: Request, limit: number, fileLimit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw tooLarge(fileLimit);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(fileLimit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(new ArrayBuffer(size));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/**
 * A multipart form whose file may be at most `maxFileBytes`; `extraBytes` allows for the other
 * fields (a blog form carries up to 100,000 characters of text beside its image).
 */
export async function readUploadForm(request: Request, maxFileBytes: number, extraBytes = 64 * 1024): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  const body = await readLimitedBody(request, maxFileBytes + extraBytes, maxFileBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('bad_request', 'Expected a multipart/form-data body');
  }
  // A form of ours has about ten fields; thousands of tiny parts are an attack on the parser.
  if ([...form.keys()].length > MAX_FORM_FIELDS) throw new AppError('bad_request', `A form may have at most ${MAX_FORM_FIELDS} fields`);
  return form;
}

/** The form's file as bytes, or null when none was chosen. */
export async function fileBytes(form: FormData, field: string, maxFileBytes: number): Promise<Buffer | null> {
  const file = form.get(field);
  if (!file || typeof file === 'string' || file.size === 0) return null;
  if (file.size > maxFileBytes) throw tooLarge(maxFileBytes);
  return Buffer.from(await file.arrayBuffer());
}

export const IMAGE_REQUIRED = () => new AppError('bad_request', `image: ${MESSAGES.fieldRequired}`, 'image');

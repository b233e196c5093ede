/**
 * Intake bodies are read as raw bytes (the signature covers them byte for byte) and parsed here:
 * JSON, or multipart/form-data with a JSON part and image parts (events with snapshots). Multipart
 * is parsed by the runtime's own Fetch implementation from the bytes already in memory.
 */
import type { z } from 'zod';
import { badRequest, msg, type FieldProblem } from '../platform/errors.js';
import { pathsWithNul } from '../platform/validation.js';
import { messageOfIssue, type IssueFacts } from '../platform/zod-issues.js';

export interface ParsedBody {
  /** The JSON value: the whole body, or the multipart part named `jsonPart`. */
  json: unknown;
  /** The file parts of a multipart body, by part name. */
  files: Map<string, Uint8Array>;
}

const badBody = () => badRequest([], msg('intake.badBody'));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badBody();
  }
}

/** Parses the body by its content type; `jsonPart` names the JSON part of a multipart body. */
export async function parseIntakeBody(body: Buffer, contentType: string | undefined, jsonPart: string): Promise<ParsedBody> {
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { 'content-type': contentType! } }).formData();
    } catch {
      throw badBody();
    }
    const files = new Map<string, Uint8Array>();
    let json: unknown;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') {
        if (name === jsonPart) json = parseJson(value);
      } else {
        files.set(name, new Uint8Array(await value.arrayBuffer()));
      }
    }
    if (json === undefined) throw badBody();
    return { json, files };
  }
  if (type.startsWith('application/json') || type === '') return { json: parseJson(body.toString('utf8')), files: new Map() };
  throw badBody();
}

/** Validates a parsed body: a 400 naming each field, as the engine's routes answer (NUL refused too). */
export function validIntakeBody<S extends z.ZodType>(schema: S, json: unknown): z.infer<S> {
  const nul = pathsWithNul(json);
  if (nul.length > 0) throw badRequest(nul.map((path) => ({ path: path.join('.'), ...msg('validation.noNul') })));
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems: FieldProblem[] = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), ...messageOfIssue(issue as IssueFacts) }));
  throw badRequest(problems);
}

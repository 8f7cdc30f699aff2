import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

/** A JSON Schema of the document (OpenAPI 3.1: JSON Schema 2020-12). */
export type Schema = Record<string, unknown>;

/** A parameter of an operation. */
export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly schema: Schema;
}

/** One operation of `/openapi.json`, with its JSON Schema validators. */
export interface Operation {
  readonly method: string;
  readonly path: string;
  readonly parameters: readonly Parameter[];
  /** The `application/json` request body schema, if the operation takes one. */
  readonly body: Schema | undefined;
  readonly bodyRequired: boolean;
  /** Validates one parameter's value as sent (text, read as the schema's type). */
  readonly validParameter: (name: string, value: unknown) => boolean;
  /** Validates a JSON body. */
  readonly validBody: (value: unknown) => boolean;
  /** Documented statuses. */
  readonly statuses: ReadonlySet<string>;
  /** The headers documented on the response of a status (by name, as the document spells it). */
  readonly responseHeaders: (status: number) => Readonly<Record<string, DocumentedHeader>>;
  /** The validator of a response body for a status and media type, or null when none is documented. */
  readonly responseValidator: (
    status: number,
    media: string,
  ) => ValidateFunction | null | undefined;
}

/** A documented response header. */
export interface DocumentedHeader {
  readonly required?: boolean;
  readonly schema?: Schema;
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema: Schema }> };
  responses: Record<
    string,
    { content?: Record<string, { schema: Schema }>; headers?: Record<string, DocumentedHeader> }
  >;
}

/** The document as far as these tests read it. */
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, RawOperation>>;
  readonly components?: { schemas?: Record<string, Schema> };
}

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;
const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Every operation of the document, with validators compiled by ajv against the document itself
 * (so `$ref`s to `#/components/schemas` resolve as a client's validator would resolve them).
 */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ajvOf = (coerceTypes: boolean) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes });
    addFormats(ajv);
    ajv.addSchema(doc as unknown as Schema, 'openapi.json');
    return (...pointer: string[]) =>
      ajv.compile({ $ref: `openapi.json#/${pointer.map(escapePointer).join('/')}` });
  };
  const compile = ajvOf(false);
  // Path and query values are text, read as the schema's type (as the server's validator does).
  const compileParameter = ajvOf(true);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = raw.parameters ?? [];
      const at = ['paths', path, method];
      const paramValidators = new Map(
        parameters.map((p, i) => [
          p.name,
          compileParameter(...at, 'parameters', String(i), 'schema'),
        ]),
      );
      const json = raw.requestBody?.content?.['application/json'];
      const bodyValidator = json
        ? compile(...at, 'requestBody', 'content', 'application/json', 'schema')
        : undefined;
      const responseCache = new Map<string, ValidateFunction | null>();
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters,
        body: json?.schema,
        bodyRequired: raw.requestBody?.required === true,
        validParameter: (name, value) => paramValidators.get(name)?.(value) ?? false,
        validBody: (value) => bodyValidator?.(value) ?? false,
        statuses: new Set(Object.keys(raw.responses)),
        responseHeaders: (status) => raw.responses[String(status)]?.headers ?? {},
        responseValidator: (status, media) => {
          const key = `${status} ${media}`;
          if (!responseCache.has(key)) {
            const content = raw.responses[String(status)]?.content;
            if (content === undefined) return undefined;
            responseCache.set(
              key,
              content[media]
                ? compile(...at, 'responses', String(status), 'content', media, 'schema')
                : null,
            );
          }
          return responseCache.get(key);
        },
      });
    }
  }
  return operations;
}

/**
 * `schema` with every `$ref` into the document replaced by its target (a generator needs the
 * schema whole); a reference met again deeper than `depth` becomes `{}`.
 */
export function dereference(schema: unknown, doc: OpenApiDocument, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => dereference(item, doc, depth));
  if (typeof schema !== 'object' || schema === null) return schema;
  const record = schema as Schema;
  const ref = record.$ref;
  if (typeof ref === 'string') {
    if (depth > 8) return {};
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, part) =>
          (node as Schema | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')],
        doc,
      );
    const { $ref: _ref, ...rest } = record;
    return {
      ...(dereference(target, doc, depth + 1) as Schema),
      ...(dereference(rest, doc, depth) as Schema),
    };
  }
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, dereference(value, doc, depth)]),
  );
}

/**
 * What every request's input must satisfy before any code walks it:
 * - JSON bodies are bounded in nesting depth, array length and string length right after they
 *   are parsed (V8's JSON.parse is iterative), so that nothing recursive (the signing text's
 *   JSON.stringify, validation, a service) ever meets a body nested thousands of levels deep (a
 *   30 KB body can nest 5,000 levels);
 * - text holds no control characters (PostgreSQL text cannot hold U+0000, and none of them has a
 *   use in a form field) and no half of a UTF-16 surrogate pair (`"\ud800"` in JSON: not Unicode,
 *   so no UTF-8 text or JSON column can hold it), and numbers are finite safe integers or smaller:
 *   a rule added to every validator the schemas compile to, so it applies to each field a route's
 *   schema accepts, in the query, the path and the body alike;
 * - the text rule holds for the whole of a JSON body too, keys and fields no schema names
 *   included, checked when it is parsed: a route without a body schema, or a field a route
 *   ignores, still reaches the audit log's JSON column;
 * - a PATCH names at least one field its route knows (every PATCH route, one rule);
 * - a multipart body says where its parts begin (a valid boundary), or is refused before any
 *   route reads it.
 * All loops here are iterative.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

const BODY_SHAPE = { maxDepth: 32, maxArrayItems: 1000, maxStringLength: 65_536 } as const;

/** C0 controls except tab, line feed and carriage return (multi-line text keeps those), and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Half of a surrogate pair on its own (under the u flag a whole pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;
/** What a field path shows instead of a character the rule refuses (the message must not carry it). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SHOWN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\p{Cs}/gu;

export type ShapeIssue = 'bodyTooDeep' | 'bodyArrayTooLong' | 'bodyStringTooLong';

/** The first way `value` exceeds BODY_SHAPE, or null. */
export function shapeIssue(value: unknown): ShapeIssue | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > BODY_SHAPE.maxStringLength) return 'bodyStringTooLong';
    } else if (v !== null && typeof v === 'object') {
      if (depth >= BODY_SHAPE.maxDepth) return 'bodyTooDeep';
      const items = Array.isArray(v) ? v : Object.values(v as object);
      if (Array.isArray(v) && v.length > BODY_SHAPE.maxArrayItems) return 'bodyArrayTooLong';
      for (const item of items) stack.push([item, depth + 1]);
      // Keys are text too.
      if (!Array.isArray(v)) for (const key of Object.keys(v as object)) stack.push([key, depth + 1]);
    }
  }
  return null;
}

export type ValueIssue = 'controlCharacter' | 'loneSurrogate' | 'numberRange';

const textIssue = (text: string): ValueIssue | null =>
  CONTROL.test(text) ? 'controlCharacter' : LONE_SURROGATE.test(text) ? 'loneSurrogate' : null;

/**
 * Where in `value` a string (or a key) breaks the text rule (a control character, half a surrogate
 * pair), or, unless `numbers` is false, a number is not finite or beyond the safe integers (Ajv's
 * type coercion turns "1e400" into Infinity and lets it past minimum and maximum); `path` is a JSON
 * pointer ('' for the root). Null when there is none.
 */
export function unsafeValueAt(
  value: unknown,
  { numbers = true }: { numbers?: boolean } = {},
): { path: string; issue: ValueIssue } | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const issue = textIssue(v);
      if (issue) return { path, issue };
    } else if (typeof v === 'number') {
      if (numbers && (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER))
        return { path, issue: 'numberRange' };
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v as object)) {
        const issue = textIssue(key);
        if (issue) return { path: `${path}/${key.replace(SHOWN, '?')}`, issue };
        stack.push([item, `${path}/${key}`]);
      }
    }
  }
  return null;
}

/** A refusal that reads like a schema's: the error handler names the field and the rule. */
function bodyRefusal(found: { path: string; issue: ValueIssue }): Error {
  return Object.assign(new Error(found.issue), {
    statusCode: 400,
    validation: [{ keyword: found.issue, instancePath: found.path, params: {} }],
    validationContext: 'body',
  });
}

/**
 * Replaces the JSON parser with one that refuses, with a 400, bodies out of BODY_SHAPE and bodies
 * with text the rule refuses anywhere in them.
 */
export function boundJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (err, value) => {
      if (err) return done(err, undefined);
      const issue = shapeIssue(value);
      if (issue) return done(new AppError(400, issue), undefined);
      // After the shape: the walk is then bounded. Numbers are the schemas' (an ignored field's
      // 1e400 harms nothing); text is everyone's, since the audit keeps what no schema read.
      const found = unsafeValueAt(value, { numbers: false });
      return found ? done(bodyRefusal(found), undefined) : done(null, value);
    });
  });
}

/**
 * A multipart content type's boundary as RFC 2046 allows it (1 to 70 of its characters, not
 * ending in a space; quoted or not), or null.
 */
export function multipartBoundary(contentType: string): string | null {
  const [, ...params] = contentType.split(';');
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(value) ? value : null;
  }
  return null;
}

/**
 * Refuses a multipart/form-data request without a valid boundary before any route reads it (the
 * multipart reader throws on one, which would be a 5xx), on every route that takes uploads.
 */
export function requireMultipartBoundaries(app: FastifyInstance): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    const type = req.headers['content-type'];
    if (type && type.split(';', 1)[0]!.trim().toLowerCase() === 'multipart/form-data' && !multipartBoundary(type)) {
      throw new AppError(400, 'multipartBoundary');
    }
    return payload;
  });
}

type Validate = ((
  data: unknown,
  ctx?: { parentData: Record<string, unknown>; parentDataProperty: string },
) => boolean) & {
  errors?: unknown[] | null;
  schemaEnv?: unknown;
};

/** Wraps a compiled validator: after the schema passes, unsafeValueAt must find nothing either. */
export function refuseUnsafeValues(validate: Validate): Validate {
  const wrapped: Validate = (data, ctx) => {
    if (!validate(data, ctx)) {
      wrapped.errors = validate.errors ?? null;
      return false;
    }
    // Coercion may have replaced the root value in its parent.
    const found = unsafeValueAt(ctx ? ctx.parentData[ctx.parentDataProperty] : data);
    wrapped.errors = found && [{ keyword: found.issue, instancePath: found.path, params: {} }];
    return found === null;
  };
  wrapped.schemaEnv = validate.schemaEnv;
  return wrapped;
}

/**
 * Wraps a PATCH body's validator: after it passes, the body must name at least one of `fields`
 * (a change that names nothing the route knows is a mistake, not a change of nothing).
 */
export function refuseEmptyPatch(validate: Validate, fields: string[]): Validate {
  const wrapped: Validate = (data, ctx) => {
    if (!validate(data, ctx)) {
      wrapped.errors = validate.errors ?? null;
      return false;
    }
    const body = ctx ? ctx.parentData[ctx.parentDataProperty] : data;
    const names = body !== null && typeof body === 'object' && fields.some((f) => Object.hasOwn(body, f));
    wrapped.errors = names
      ? null
      : [{ keyword: 'nothingToChange', instancePath: '', params: { fields: fields.join(', ') } }];
    return names;
  };
  wrapped.schemaEnv = validate.schemaEnv;
  return wrapped;
}

/**
 * Fastify's own validator compiler (Ajv, with the options the app passes), each validator it
 * builds wrapped by refuseUnsafeValues, and a PATCH body's also by refuseEmptyPatch: the rules
 * hold for every schema of every route.
 */
export function textRuleValidators(): AjvCompiler.BuildCompilerFromPool {
  const factory = AjvCompiler();
  return (...args) => {
    const build = factory(...args);
    return (route: Parameters<typeof build>[0]) => {
      const validate = refuseUnsafeValues(build(route) as Validate);
      // Fastify calls the compiler with the route's definition (schema, method, url, httpPart).
      const def = route as unknown as AjvCompiler.RouteDefinition;
      const fields = Object.keys((def.schema as { properties?: object }).properties ?? {});
      const patch = def.httpPart === 'body' && def.method === 'PATCH' && fields.length > 0;
      return (patch ? refuseEmptyPatch(validate, fields) : validate) as unknown as ReturnType<typeof build>;
    };
  };
}

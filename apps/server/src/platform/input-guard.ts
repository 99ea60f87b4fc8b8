/**
 * What every request's input must satisfy before any code walks it:
 * - JSON bodies are bounded in nesting depth, array length and string length right after they
 *   are parsed (V8's JSON.parse is iterative), so that nothing recursive (the signing text's
 *   JSON.stringify, validation, a service) ever meets a body nested thousands of levels deep (a
 *   30 KB body can nest 5,000 levels);
 * - text holds no control characters (PostgreSQL text cannot hold U+0000, and none of them has a
 *   use in a form field) and numbers are finite safe integers or smaller: a rule added to every
 *   validator the schemas compile to, so it applies to each field a route's schema accepts, in the
 *   query, the path and the body alike.
 * All loops here are iterative.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

const BODY_SHAPE = { maxDepth: 32, maxArrayItems: 1000, maxStringLength: 65_536 } as const;

/** C0 controls except tab, line feed and carriage return (multi-line text keeps those), and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

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

export type ValueIssue = 'controlCharacter' | 'numberRange';

/**
 * Where in `value` a string holds a control character, or a number is not finite or beyond the
 * safe integers (Ajv's type coercion turns "1e400" into Infinity and lets it past minimum and
 * maximum); `path` is a JSON pointer ('' for the root). Null when there is none.
 */
export function unsafeValueAt(value: unknown): { path: string; issue: ValueIssue } | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (CONTROL.test(v)) return { path, issue: 'controlCharacter' };
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) return { path, issue: 'numberRange' };
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v as object)) {
        if (CONTROL.test(key)) return { path: `${path}/${key.replace(CONTROL, '?')}`, issue: 'controlCharacter' };
        stack.push([item, `${path}/${key}`]);
      }
    }
  }
  return null;
}

/** Replaces the JSON parser with one that refuses bodies out of BODY_SHAPE with a 400. */
export function boundJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (err, value) => {
      if (err) return done(err, undefined);
      const issue = shapeIssue(value);
      return issue ? done(new AppError(400, issue), undefined) : done(null, value);
    });
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
 * Fastify's own validator compiler (Ajv, with the options the app passes), each validator it
 * builds wrapped by refuseUnsafeValues: the rule holds for every schema of every route.
 */
export function textRuleValidators(): AjvCompiler.BuildCompilerFromPool {
  const factory = AjvCompiler();
  return (...args) => {
    const build = factory(...args);
    return (route: Parameters<typeof build>[0]) =>
      refuseUnsafeValues(build(route) as Validate) as unknown as ReturnType<typeof build>;
  };
}

/**
 * The resources of the operators' API (docs/api.md "The operators' API", contracts/admin.ts) as the
 * generic commands see them: what `get`, `create`, `update` and `delete` of a path mean, and which
 * method each sends. A path is `<resource>`, `<resource>/<action>` (menus/export),
 * `<resource>/<id>` or `<resource>/<id>/<sub>` (users/42/roles). Pure.
 */
import { usageError } from './args.js';
import type { Method } from './api.js';

export type Shape = 'paged' | 'list' | 'object';

export interface Resource {
  /** What `GET /api/admin/<name>` answers: `{records, total}` pages, a list, or one object. */
  get?: Shape;
  /** GET <name>/<id> answers one item (with more than its row in the list); else it is found in the list. */
  item?: boolean;
  /** POST <name> creates one; the answer is its id. */
  create?: boolean;
  /** PATCH <name>/<id> changes the fields sent. */
  patch?: boolean;
  /** PUT <name> replaces the whole object (settings, agreement). */
  put?: boolean;
  /** DELETE <name>/<id>. */
  remove?: boolean;
  /** Calls on the resource itself: `<name>/<action>`. */
  actions?: Record<string, 'GET' | 'POST'>;
  /** Calls on one item: `<name>/<id>/<sub>`. PUT ones replace a list (roles, enterprises, permissions). */
  subs?: Record<string, 'POST' | 'PUT'>;
  /** Reads of one item: `get <name>/<id>/<sub>` (a notice's recipients), and what each answers. */
  reads?: Record<string, Shape>;
  /** GET <name>/<id> answers the item itself (else `get <name>/<id>` looks it up in the list). */
  one?: boolean;
  /** For messages: `Created new <singular> with id '…'`. */
  singular: string;
  about: string;
}

export const RESOURCES: Record<string, Resource> = {
  tenants: { get: 'paged', create: true, patch: true, singular: 'tenant', about: 'tenants (platform operators)' },
  settings: { get: 'object', put: true, singular: 'settings', about: "the tenant's switches (update merges)" },
  agreement: { get: 'object', put: true, singular: 'agreement', about: 'the registration agreement' },
  'security-policy': {
    get: 'object',
    put: true,
    singular: 'security policy',
    about: "the tenant's security policy: password rules, second factors, step-up (update merges)",
  },
  users: {
    get: 'paged',
    create: true,
    patch: true,
    subs: {
      disable: 'POST',
      enable: 'POST',
      unlock: 'POST',
      password: 'POST',
      'factors/reset': 'POST',
      roles: 'PUT',
      enterprises: 'PUT',
    },
    actions: { 'name-issues': 'GET' },
    singular: 'user',
    about: 'users (-q q=, roleId=, state=active|disabled|locked); name-issues: stored names to rename',
  },
  roles: { get: 'list', create: true, patch: true, subs: { permissions: 'PUT' }, singular: 'role', about: 'roles' },
  permissions: { get: 'list', create: true, patch: true, singular: 'permission', about: 'permission codes' },
  applications: { get: 'list', create: true, patch: true, singular: 'application', about: 'applications' },
  workbenches: { get: 'list', create: true, patch: true, singular: 'workbench', about: 'workbenches' },
  menus: {
    get: 'list',
    create: true,
    patch: true,
    remove: true,
    subs: { move: 'POST' },
    actions: { export: 'GET', import: 'POST' },
    singular: 'menu entry',
    about: 'the menu, flat (export/import: the whole tree)',
  },
  enterprises: {
    get: 'paged',
    item: true,
    subs: { review: 'POST' },
    singular: 'enterprise',
    about: 'the review queue (-q estatus=0|1|2); enterprises/<id>: what was registered',
  },
  'sso-services': {
    get: 'list',
    create: true,
    patch: true,
    remove: true,
    singular: 'sign-on service',
    about: 'CAS services and external systems',
  },
  'oidc-clients': {
    get: 'paged',
    one: true,
    create: true,
    patch: true,
    remove: true,
    subs: { enable: 'POST', disable: 'POST', secret: 'POST' },
    singular: 'OIDC client',
    about: 'OpenID Connect clients (-q q=); <id>/secret: a new secret (shown once), <id>/enable, <id>/disable',
  },
  'sms-outbox': { get: 'paged', singular: 'message', about: 'SMS the outbox provider kept' },
  audit: { get: 'paged', singular: 'entry', about: 'the audit log (-q actor=, action=, from=, to=)' },
  notices: {
    get: 'paged',
    one: true,
    create: true,
    subs: { withdraw: 'POST' },
    reads: { recipients: 'paged' },
    singular: 'notice',
    about:
      'notices of your own tenant (-q q=, state=active|withdrawn); <id>/recipients (-q state=unread|read|confirmed|replied, q=)',
  },
};

export type Target =
  | { kind: 'collection'; name: string; res: Resource }
  | { kind: 'action'; name: string; res: Resource; action: string; method: 'GET' | 'POST' }
  | { kind: 'item'; name: string; res: Resource; id: string }
  | { kind: 'sub'; name: string; res: Resource; id: string; sub: string; method: 'POST' | 'PUT' }
  | { kind: 'read'; name: string; res: Resource; id: string; sub: string; shape: Shape };

/** A path of the command line, read against the table; anything else is a usage error. */
export function resolveTarget(path: string | undefined): Target {
  if (!path) throw usageError('a resource is required (e.g. users, users/42, menus/export)');
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  const name = parts[0]!;
  const res = Object.hasOwn(RESOURCES, name) ? RESOURCES[name] : undefined;
  if (!res) throw usageError(`unknown resource '${name}'; resources: ${Object.keys(RESOURCES).join(', ')}`);
  if (parts.some((p) => p === '')) throw usageError(`'${path}' is not a resource path`);
  if (parts.length === 1) return { kind: 'collection', name, res };
  const second = parts[1]!;
  if (parts.length === 2) {
    const action = res.actions?.[second];
    if (action) return { kind: 'action', name, res, action: second, method: action };
    return { kind: 'item', name, res, id: second };
  }
  const read = parts.length === 3 ? res.reads?.[parts[2]!] : undefined;
  if (read) return { kind: 'read', name, res, id: second, sub: parts[2]!, shape: read };
  // A sub may be two words (users/42/factors/reset).
  const subName = parts.slice(2).join('/');
  const sub = parts.length <= 4 && Object.hasOwn(res.subs ?? {}, subName) ? res.subs![subName] : undefined;
  if (!sub) {
    const subs = [...Object.keys(res.subs ?? {}), ...Object.keys(res.reads ?? {})];
    throw usageError(
      `${name} has no '${parts.slice(2).join('/')}'${subs.length ? `; after ${name}/<id>/: ${subs.join(', ')}` : ''}`,
    );
  }
  return { kind: 'sub', name, res, id: second, sub: subName, method: sub };
}

/** The API path of a target. */
export function apiPath(t: Target): string {
  const base = `/api/admin/${t.name}`;
  switch (t.kind) {
    case 'collection':
      return base;
    case 'action':
      return `${base}/${t.action}`;
    case 'item':
      return `${base}/${encodeURIComponent(t.id)}`;
    case 'sub':
    case 'read':
      return `${base}/${encodeURIComponent(t.id)}/${t.sub}`;
  }
}

const cannot = (verb: string, t: Target, hint = '') =>
  usageError(`cannot ${verb} ${t.kind === 'collection' ? t.name : `${t.name}/…`}${hint}`);

/** What `create <path>` sends. */
export function createMethod(t: Target): Method {
  if (t.kind === 'collection' && t.res.create) return 'POST';
  if (t.kind === 'action' && t.method === 'POST') return 'POST';
  if (t.kind === 'sub' && t.method === 'POST') return 'POST';
  if (t.kind === 'sub') throw cannot('create', t, ` (it is replaced: use update ${t.name}/${t.id}/${t.sub})`);
  if (t.kind === 'collection' && t.res.put) throw cannot('create', t, ` (use update ${t.name})`);
  throw cannot('create', t);
}

/** What `update <path>` sends: PATCH an item, PUT a whole object or list, POST an action of an item. */
export function updateMethod(t: Target): Method {
  if (t.kind === 'item' && t.res.patch) return 'PATCH';
  if (t.kind === 'collection' && t.res.put) return 'PUT';
  if (t.kind === 'sub') return t.method;
  if (t.kind === 'collection' && t.res.patch) throw cannot('update', t, ` (name one: ${t.name}/<id>)`);
  throw cannot('update', t);
}

export function deleteMethod(t: Target): Method {
  if (t.kind === 'item' && t.res.remove) return 'DELETE';
  throw cannot('delete', t);
}

/** The body fields that are passwords: sent RSA-encrypted, as at login. */
export const PASSWORD_FIELDS = [['password'], ['operator', 'password']] as const;

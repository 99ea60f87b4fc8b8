// Lint rules, including the import boundaries that docs/architecture.md describes:
// web: app → features → components → lib, features never import each other; server: routes → service →
// repository → db, services and repositories never import Fastify, modules never import each other.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Every feature and module folder, read from disk so a new one is covered at once.
const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const WEB_FEATURES = folders('apps/web/src/features');
const SERVER_MODULES = folders('apps/server/src/modules');
const PROGRAMS = folders('apps/server/src/programs');

// The server sends requests to other servers through platform/outbound.ts alone (ADR 034): its
// address rule, no redirects and deadlines then hold for every one. Creating servers stays allowed.
const OUTBOUND_ONLY = 'The server sends requests to other servers through platform/outbound.ts only (ADR 034).';
const OUTBOUND_IMPORTS = [
  ...['undici', 'node:https', 'https', 'node:http2', 'http2'].map((name) => ({ name, message: OUTBOUND_ONLY })),
  ...['node:http', 'http'].map((name) => ({
    name,
    importNames: ['default', 'request', 'get', 'Agent', 'ClientRequest', 'globalAgent'],
    message: OUTBOUND_ONLY,
  })),
  ...['node:net', 'net', 'node:tls', 'tls'].map((name) => ({
    name,
    importNames: ['default', 'connect', 'createConnection'],
    message: OUTBOUND_ONLY,
  })),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'e2e/artifacts/**', '.test-data/**', 'data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: {
      // TypeScript files are modules to import-x too (without these, no-cycle never reads them).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // No module imports one that imports it back, however far round (type-only imports aside: they
      // are gone at run time). A cycle makes load order matter and layers blur. An installed
      // package never imports our files back, so no cycle runs through one and the rule does not
      // read them (reading them was most of the lint's time).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...WEB_FEATURES.map((f) => ({
              target: `./apps/web/src/features/${f}`,
              from: './apps/web/src/features',
              except: [`./${f}`],
              message: 'Features never import each other; compose them in src/app.',
            })),
            {
              target: './apps/web/src/features',
              from: './apps/web/src/app',
              message: 'Features never import the app layer.',
            },
            {
              target: ['./apps/web/src/lib', './apps/web/src/components'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'lib and components are shared code: they import neither features nor the app layer.',
            },
          ],
        },
      ],
    },
  },
  {
    // The demo sub-application, and the pages the micro-frontend host comparison loads: browser code.
    files: ['apps/demo-micro-app/src/**/*.{ts,tsx}', 'bench/micro-hosts/pages/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['apps/server/src/**/*.ts'],
    // A test may put modules together as app.ts does (sso.test.ts runs a CAS client of auth).
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...SERVER_MODULES.map((m) => ({
              target: `./apps/server/src/modules/${m}`,
              from: './apps/server/src/modules',
              except: [`./${m}`],
              message: 'Modules never import each other; app.ts wires them together.',
            })),
            {
              target: ['./apps/server/src/platform', './apps/server/src/db'],
              from: './apps/server/src/modules',
              message: 'platform and db sit below the modules.',
            },
            {
              target: [
                './apps/server/src/platform',
                './apps/server/src/db',
                './apps/server/src/modules',
                './apps/server/src/app.ts',
              ],
              from: './apps/server/src/programs',
              message: 'Programs (programs/<name>/main.ts) sit on top: nothing the server is built from imports them.',
            },
            ...PROGRAMS.map((p) => ({
              target: `./apps/server/src/programs/${p}`,
              from: './apps/server/src/programs',
              except: [`./${p}`],
              message: 'Programs never import each other; what two of them share belongs below them.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    // The outbound client itself; the admin CLI and the device simulator, programs that are clients
    // of the portal run by the installation, not the server; tests, which play the other servers.
    ignores: [
      '**/*.test.ts',
      'apps/server/src/test/**',
      'apps/server/src/platform/outbound.ts',
      'apps/server/src/programs/admin/**',
      'apps/server/src/programs/devices-simulator/**',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: OUTBOUND_IMPORTS }],
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({ name, message: OUTBOUND_ONLY })),
      ],
      'no-restricted-properties': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((property) => ({
          object: 'globalThis',
          property,
          message: OUTBOUND_ONLY,
        })),
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.service.ts', 'apps/server/src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: OUTBOUND_IMPORTS,
          patterns: [{ group: ['fastify', '@fastify/*'], message: 'Services and repositories never import Fastify.' }],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: OUTBOUND_IMPORTS,
          patterns: [
            { group: ['fastify', '@fastify/*'], message: 'Repositories never import Fastify.' },
            { group: ['*.service.js', '*.routes.js'], message: 'Repositories sit below services and routes.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: OUTBOUND_IMPORTS,
          patterns: [
            { group: ['fastify', '@fastify/*'], message: 'Services never import Fastify.' },
            { group: ['*.routes.js'], message: 'Services sit below routes.' },
          ],
        },
      ],
    },
  },
);

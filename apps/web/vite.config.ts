import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { firstScreenChunk } from './build/first-screen.ts';

/** Writes .gz and .br beside every text asset; the server sends them as they are (no compression
 * at request time). */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = c.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const buf = readFileSync(file);
        if (buf.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(buf, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

const RC_PACKAGES =
  /\/node_modules\/(rc-[^/]+|@rc-component\/[^/]+|@ant-design\/(cssinjs|cssinjs-utils|fast-color|colors))\/es\//;

// The route modules of the signed-in shell (app/router.tsx loads them when the first screen shows).
const firstScreen = firstScreenChunk(['src/app/routes/protected.tsx', 'src/app/routes/layout.tsx']);

const server = process.env.PORTAL_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig(({ command }) => ({
  // Relative in the build: the server mounts the app at the runtime public path (default /center/).
  base: command === 'build' ? './' : '/center/',
  plugins: [react(), precompress(), firstScreen.plugin],
  resolve: {
    conditions: ['source'],
    alias: { 'resize-observer-polyfill': resolve(import.meta.dirname, 'src/lib/resize-observer.ts') },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The first screen's library code in one chunk rather than dozens (build/first-screen.ts).
      output: { codeSplitting: { groups: [firstScreen.group] } },
      // antd's rc-* parts and style runtime declare no `sideEffects`, though their modules only
      // define things: without this, a component importing one name of a package's index keeps
      // the whole package (antd's form context alone brought rc-field-form and its validator, 16
      // KB gzip, into the first screen).
      treeshake: { moduleSideEffects: (id) => (RC_PACKAGES.test(id) ? false : undefined) },
    },
  },
  server: {
    proxy: { '/api': server, '/center/config.js': server },
  },
}));

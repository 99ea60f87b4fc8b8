import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * One UMD script and one style sheet beside a plain index.html (public/): the shape every
 * micro-frontend host can load — qiankun reads the lifecycles the UMD wrapper puts on its global,
 * wujie runs the script in its own realm, and the page also works on its own.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source'] },
  // Library mode leaves `process.env.NODE_ENV` to the bundler's user: React's production build.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    target: 'es2022',
    lib: {
      entry: 'src/main.tsx',
      name: 'parkServices',
      formats: ['umd'],
      fileName: () => 'park-services.js',
      cssFileName: 'park-services',
    },
    copyPublicDir: true,
  },
});

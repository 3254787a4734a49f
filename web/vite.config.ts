/**
 * Builds the web workspace into static files in web/dist, which the API serves at `/`
 * (api/routes/web.ts). JSX goes through esbuild's automatic runtime with Preact, so no Babel
 * plugin is needed. The output has no inline script or style, so the strict CSP holds.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Inlined assets would become data: URLs; keep every asset a file the CSP allows.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});

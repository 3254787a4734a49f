/**
 * Builds the web workspace into static files in web/dist, which the API serves at `/`
 * (api/routes/web.ts). JSX goes through esbuild's automatic runtime with Preact, so no Babel
 * plugin is needed. The output has no inline script or style, so the strict CSP holds.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * CodeMirror's styles (style-mod) go into a constructed stylesheet adopted by the document,
 * which `style-src 'self'` allows; unpatched, style-mod adopts sheets only in shadow roots and
 * writes a `<style>` element into a document's head, which the CSP refuses. The build fails
 * if style-mod no longer has the line this changes.
 */
function adoptedCodeMirrorStyles(): Plugin {
  const guard = '!root.head && root.adoptedStyleSheets';
  return {
    name: 'adopted-codemirror-styles',
    transform(code, id) {
      if (!/[\\/]style-mod[\\/]src[\\/]style-mod\.js$/.test(id)) return null;
      if (!code.includes(guard)) throw new Error(`style-mod changed: "${guard}" not found in ${id}`);
      return { code: code.replace(guard, 'root.adoptedStyleSheets'), map: null };
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  plugins: [adoptedCodeMirrorStyles()],
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

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Paths the server answers (api-conventions.md "Legacy and compatibility paths"); everything else is the SPA.
const API_PREFIXES = ['/v1', '/v2', '/s/', '/Login', '/Home', '/OpenApi', '/ExcelImport', '/ExcelExport', '/GlobalSearch'];
const API_TARGET = 'http://127.0.0.1:3000';

// react-router's package exports name its development build for every condition (its dev warnings and checks, about
// 6 kB gzip more); a production build takes the production files it ships beside them (docs/decisions/0036).
const routerProductionBuild = (file: string) => fileURLToPath(new URL(`../../node_modules/react-router/dist/production/${file}`, import.meta.url));

// Packages whose modules have no effect beyond their exports, though their package.json does not say so. antd's
// Input imports Form's context module, which imports @rc-component/form's index, whose `Form.useForm = …` lines
// count as effects: without this the sign-in page downloads the whole form store and its validator (0084).
const SIDE_EFFECT_FREE = /node_modules[\\/]@rc-component[\\/](form|async-validator)[\\/]/;

export default defineConfig(({ command }) => ({
  base: '/',
  plugins: [react()],
  resolve: {
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: routerProductionBuild('index.mjs') },
            { find: /^react-router\/dom$/, replacement: routerProductionBuild('dom-export.mjs') },
          ]
        : [],
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: scripts/bundle-size.mjs follows it to the sign-in page's chunks (not served: a dot folder).
    manifest: true,
    // Route modules are split with import(); a plain antd app is otherwise one 1 MB chunk (stack.md).
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => (SIDE_EFFECT_FREE.test(id) ? false : undefined),
      },
      output: {
        // React and the router change rarely: one long-cached chunk shared by every page.
        codeSplitting: {
          groups: [{ name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
}));

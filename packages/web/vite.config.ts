import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Paths the server answers (api-conventions.md "Legacy and compatibility paths"); everything else is the SPA.
const API_PREFIXES = ['/v1', '/v2', '/Login', '/Home', '/OpenApi', '/ExcelImport', '/ExcelExport', '/GlobalSearch'];
const API_TARGET = 'http://127.0.0.1:3000';

export default defineConfig({
  base: '/',
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Route modules are split with import(); a plain antd app is otherwise one 1 MB chunk (stack.md).
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // React and the router change rarely: one long-cached chunk shared by every page.
        codeSplitting: {
          groups: [{ name: 'react-vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
        },
      },
    },
  },
});

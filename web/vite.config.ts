import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';
import { elementPlusStyles } from './build/element-plus-styles.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The pages, built into web/dist with relative asset URLs (the server decides the prefix). */
export const PAGES = ['search', 'login', 'db_admin', 'super_admin', 'v2_debug'];

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [vue(), elementPlusStyles()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    chunkSizeWarningLimit: 800,
    reportCompressedSize: true,
    rolldownOptions: {
      input: Object.fromEntries(PAGES.map((page) => [page, here(`./${page}.html`)])),
      output: {
        // Chunks shared by several pages are named after their first module (`_plugin-vue…`): call them `shared`.
        chunkFileNames: (chunk) => (/^[_.]|^index$/.test(chunk.name) ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js'),
        assetFileNames: (asset) => (/^[_.]/.test(asset.names[0] ?? '') ? 'assets/shared-[hash][extname]' : 'assets/[name]-[hash][extname]'),
      },
    },
  },
});

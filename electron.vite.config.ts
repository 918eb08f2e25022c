import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const r = (p: string): string => resolve(import.meta.dirname, p)

// Layout and options from research/electron-stack.md §1.4–1.5: dependencies stay external
// (native modules), the sandboxed preload is self-contained CommonJS.
export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: { input: { index: r('src-main/electron/main.ts') } },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: r('src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: r('src-renderer'),
    plugins: [react()],
    build: { rollupOptions: { input: { index: r('src-renderer/index.html') } } },
  },
})

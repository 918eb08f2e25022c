import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const r = (p: string): string => resolve(import.meta.dirname, p)

// Options per electron-vite's "Dependency handling" (https://electron-vite.org/guide/dependency-handling):
// dependencies stay external (native modules); the preload is one self-contained CommonJS file, because a
// sandboxed preload can require no npm package and cannot be ESM (Electron docs, "Process Sandboxing" and
// "ES Modules (ESM) in Electron": https://www.electronjs.org/docs/latest/tutorial/sandbox, .../tutorial/esm).
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

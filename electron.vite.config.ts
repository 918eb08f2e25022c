import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const r = (p: string): string => resolve(import.meta.dirname, p)

// Options per electron-vite's "Dependency handling" (https://electron-vite.org/guide/dependency-handling):
// dependencies stay external (native modules, and pino, whose transports load by name in a worker
// thread), except the plain-JavaScript ones every start loads: bundled, each is one file to read and
// compile instead of hundreds to resolve (undici alone is about 400 modules), which shortens a cold
// start. The preload is one self-contained CommonJS file, because a sandboxed preload can require no
// npm package and cannot be ESM (Electron docs, "Process Sandboxing" and "ES Modules (ESM) in
// Electron": https://www.electronjs.org/docs/latest/tutorial/sandbox, .../tutorial/esm).
export default defineConfig({
  main: {
    build: {
      externalizeDeps: { exclude: ['undici', 'zod', 'prom-client', 'commander'] },
      // The command line is built with the app, so `pos-agent serve` runs the same bundle as Electron
      // and needs no TypeScript compiler at run time.
      rollupOptions: { input: { index: r('src-main/electron/main.ts'), cli: r('src-main/cli/main.ts') } },
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

import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// Two environments in one run (Vitest "Test projects", https://vitest.dev/guide/projects): the main process and shared code
// under plain Node, the renderer under happy-dom. Vitest 4 needs `extends: true` to inherit root options.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          environment: 'node',
          // Tests spawn the built command line (bin/pos-agent.js): build it first when the sources changed.
          globalSetup: ['test/support/build-before-tests.ts'],
          include: ['test/main/**/*.test.ts', 'test/shared/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/bench/**/*.test.ts'],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts', 'test/renderer/**/*.test.tsx'],
        },
      },
    ],
  },
})

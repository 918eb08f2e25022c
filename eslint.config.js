// Lint rules keep the layers of docs/architecture.md apart: only src-main/electron and src-main/preload
// may import Electron; shared and renderer code never touches Node; main never reaches into the UI.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'net',
  'tls',
  'http',
  'https',
  'stream',
  'worker_threads',
  'buffer',
  'util',
]

const noElectron = { name: 'electron', message: 'Only src-main/electron and src-main/preload may import electron.' }

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  {
    files: ['src-main/electron/**', 'src-main/preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-main/**'],
    ignores: ['src-main/electron/**', 'src-main/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [{ group: ['**/src-renderer/**'], message: 'The main process never imports renderer code.' }],
        },
      ],
    },
  },
  {
    files: ['src-shared/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, { name: 'react', message: 'src-shared is framework-free.' }],
          patterns: [
            { group: nodeBuiltins, message: 'src-shared is pure TypeScript: no Node imports.' },
            { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-shared depends on nothing else in the project.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { group: nodeBuiltins, message: 'The renderer runs in a sandbox: no Node imports.' },
            { group: ['**/src-main/**'], message: 'The renderer talks to the main process only through the PosBridge.' },
          ],
        },
      ],
    },
  },
)

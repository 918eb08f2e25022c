// Lint rules keep the layers of docs/architecture.md apart: only src-main/electron and src-main/preload
// may import Electron; shared and renderer code never touches Node; main never reaches into the UI.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import { builtinRules } from 'eslint/use-at-your-own-risk'

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

// ── Domain doors ─────────────────────────────────────────────────────────────────────────────────────
// docs/architecture.md "One public door per domain": code outside a domain's folder imports only the
// folder's doors (its index.ts, and the index.ts of the sub-folders listed in `doors`); tests under
// test/main/<domain> test internals and may import any file of their domain. `inner` zones say what
// one part of a domain may not import. To add a domain, add an entry to DOMAINS.
// These zones use @typescript-eslint/no-restricted-imports (the same rule, same options) rather than
// no-restricted-imports: when several config objects match a file ESLint replaces a rule's options
// instead of merging them, so a rule of their own keeps the layer rules below intact.
const nodeIo = [
  'fs',
  'fs/*',
  'net',
  'tls',
  'dgram',
  'dns',
  'http',
  'https',
  'http2',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
  'stream',
  'stream/*',
]

const DOMAINS = [
  {
    folder: 'src-main/device',
    doors: ['neo2', 'card-data'],
    inner: [
      {
        // Card data is pure: codecs over bytes and strings, no reader protocol, no I/O. node:crypto stays
        // allowed: PIN blocks and DUKPT are computation (docs/device-protocol.md §6).
        files: ['src-main/device/card-data/**'],
        patterns: [
          { regex: '(?:^|/)neo2(?:/|$)', message: 'Card data is protocol-free: it never imports the NEO 2 driver (device/neo2).' },
          {
            group: [
              ...nodeIo,
              ...nodeIo.map((name) => `node:${name}`),
              'serialport',
              '@serialport/*',
              'better-sqlite3',
              'undici',
              'keytar',
            ],
            message: 'Card data is pure: no I/O modules.',
          },
        ],
      },
      {
        // The CardReader role, its errors and cashier actions know no protocol: the driver depends on them.
        files: ['src-main/device/*.ts'],
        ignores: ['src-main/device/index.ts'],
        patterns: [{ regex: '^\\./neo2(?:/|$)', message: 'The device role level never imports the NEO 2 driver; neo2/ depends on it.' }],
      },
    ],
  },
]

// ── Main domains and layers ──────────────────────────────────────────────────────────────────────────
// The other domains of src-main, under the same door rule as DOMAINS for production code: each is
// imported only through its index.ts (training also through its host/ and pinpad/ doors). src-main/cli
// is the top of the stack and nobody imports it, so it has no door. Tests, benchmarks and harnesses
// test these domains from the inside and may import their files.
const MAIN_DOMAINS = [
  ...[
    'api',
    'app',
    'config',
    'errors',
    'gateway',
    'journal',
    'keychain',
    'log',
    'metrics',
    'nexo',
    'operators',
    'receipts',
    'service',
    'setup',
    'tls',
    'txn',
    'zvt',
  ].map((name) => ({
    folder: `src-main/${name}`,
    doors: [],
    inner: [],
  })),
  { folder: 'src-main/training', doors: ['host', 'pinpad', 'printer'], inner: [] },
  // The store's records (a copy, a withdrawal) are built by the engine too: a door that loads no NATS client.
  { folder: 'src-main/store', doors: ['records'], inner: [] },
]

// Layers (docs/architecture.md "Layers"): the command line (src-main/cli) starts the composition root
// (src-main/app), which builds the domains; nothing imports upwards. src-shared importing nothing of
// src-main or src-renderer is the src-shared block's rule below. These zones use the core rule
// registered again under `layers/`: a rule name of their own, so they add to the import rules of the
// other blocks instead of replacing their options.
const mainOnly = (config) => config.files.every((glob) => glob.startsWith('src-main/'))
/** DOMAINS everywhere; MAIN_DOMAINS inside src-main only (each config object replaces the options of the ones before it). */
const doorConfigs = () => [
  ...domainDoorConfigs(DOMAINS).filter((config) => !mainOnly(config)),
  ...domainDoorConfigs([...DOMAINS, ...MAIN_DOMAINS]).filter(mainOnly),
]

const layersPlugin = { rules: { 'no-restricted-imports': builtinRules.get('no-restricted-imports') } }
const upwards = (folders, message) => ({ regex: `^(?:\\.\\./)+(?:${folders.join('|')})(?:/|$)`, message })
const CLI_WORDS =
  'The command line translates into the application layer (src-main/service) and the composition root (src-main/app): no rule of a sale, an operator or the journal, no gateway message or keychain account here.'
const CLI_DOOR = upwards(['txn', 'journal', 'operators', 'device', 'gateway', 'keychain'], CLI_WORDS)
const LAYERS = [
  {
    files: [
      'api',
      'config',
      'device',
      'errors',
      'gateway',
      'journal',
      'keychain',
      'log',
      'metrics',
      'nexo',
      'operators',
      'receipts',
      'service',
      'setup',
      'store',
      'tls',
      'training',
      'txn',
      'zvt',
    ].map((d) => `src-main/${d}/**`),
    patterns: [upwards(['app', 'cli'], 'A domain never imports the composition root (src-main/app) or the command line (src-main/cli).')],
  },
  { files: ['src-main/app/**'], patterns: [upwards(['cli'], 'The composition root never imports the command line (src-main/cli).')] },
  {
    // The doors translate a transport into the application layer (src-main/service) and hold no rule
    // or state: what a sale, an operator or the journal is, they learn only through the service.
    files: ['src-main/api/**', 'src-main/nexo/**', 'src-main/zvt/**'],
    // A config object of its own replaces the rule's options of the one above for these files: both lists here.
    patterns: [
      upwards(['app', 'cli'], 'A domain never imports the composition root (src-main/app) or the command line (src-main/cli).'),
      upwards(
        ['txn', 'journal', 'operators', 'device', 'gateway', 'keychain'],
        'A door (api, nexo, zvt, electron) reaches the agent only through the application layer (src-main/service).',
      ),
    ],
  },
  {
    // The command line is a door too: it translates flags into the application layer (src-main/service,
    // as the `cli` caller) and the composition root (src-main/app); what a sale, an operator, the
    // journal, a gateway message or a keychain account is, it never learns from inside: the
    // technician's tools (`sign`, `verify`, `send`, `key status`, doctor, `config check`, `email
    // password`, the store's credentials) reach the signer, the host and the keychain through app/.
    files: ['src-main/cli/**'],
    patterns: [CLI_DOOR],
  },
  {
    // The one exception: the gateway table names the gateway's operation kinds and sign types as its
    // flags' choices when the table is built, before any module of the agent is loaded (main.ts); it
    // takes those names, and nothing else, from src-main/gateway.
    files: ['src-main/cli/program/gateway-table.ts'],
    patterns: [
      upwards(['txn', 'journal', 'operators', 'device', 'keychain'], CLI_WORDS),
      { ...upwards(['gateway'], CLI_WORDS), allowImportNames: ['OPERATION_KINDS', 'SIGN_TYPES', 'OperationKind', 'SignType'] },
    ],
  },
  {
    // The setup page is a door of its own (the `setup` caller): the signing key, a manager's approval
    // and the first manager are the owner's service's (src-main/service), composed by src-main/app;
    // it never reads a sale or the journal. It reads the keychain only for its state in the
    // doctor's words, shown before any field.
    files: ['src-main/setup/**'],
    patterns: [
      upwards(['app', 'cli'], 'A domain never imports the composition root (src-main/app) or the command line (src-main/cli).'),
      upwards(
        ['txn', 'journal', 'device', 'operators', 'gateway'],
        'The setup page reaches the key, the operators and the journal only through the application layer (src-main/service, as the setup door).',
      ),
    ],
  },
  {
    // The store's commands only translate: the rescue, the fence, the fleet and the server's
    // configuration are decided in src-main/store (docs/store.md), never in the command line.
    files: [
      'src-main/cli/commands/store-commands.ts',
      'src-main/cli/commands/fence-command.ts',
      'src-main/cli/commands/server-config-command.ts',
      'src-main/cli/program/store-table.ts',
    ],
    patterns: [
      upwards(
        ['txn', 'journal', 'operators', 'device', 'service', 'gateway', 'keychain'],
        "The store's commands translate the command line into src-main/store (and app/ for the host and the keychain): no rule of a sale, an operator or the journal here.",
      ),
    ],
  },
  {
    files: ['src-main/service/**'],
    patterns: [
      upwards(['api', 'nexo', 'zvt', 'electron', 'cli', 'app'], 'The application layer never imports a door or the composition root.'),
    ],
  },
  {
    files: ['src-main/electron/**', 'src-main/preload/**'],
    patterns: [
      upwards(['cli'], 'The Electron shell starts the composition root, never the command line.'),
      upwards(
        ['txn', 'journal', 'operators', 'device', 'gateway', 'keychain'],
        'The Electron shell reaches the agent through the composition root and the application layer, never a domain inside.',
      ),
    ],
  },
]
const layerConfigs = LAYERS.map(({ files, patterns }) => ({
  files,
  plugins: { layers: layersPlugin },
  rules: { 'layers/no-restricted-imports': ['error', { patterns }] },
}))

/** The import rules of every domain, as config objects: doors for everyone else, inner zones inside. */
function domainDoorConfigs(domains) {
  const rule = (patterns) => ({ '@typescript-eslint/no-restricted-imports': patterns.length ? ['error', { patterns }] : 'off' })
  const doorsOf = ({ folder, doors }) => {
    const name = (door) => door.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const allowed = `(?:index|(?:${doors.map(name).join('|')})(?:/index)?)$`
    const message = `Outside ${folder}, import it only through its doors: ${[folder, ...doors.map((d) => `${folder}/${d}`)].join(', ')}.`
    const insideMain = name(folder.replace(/^src-main\//, ''))
    return {
      // From src-main, a path that names the folder from src-main's root: ./device/x, ../device/x, ../../device/x.
      fromMain: { regex: `^(?:\\.\\.?/)+${insideMain}/(?!${allowed})`, message },
      // From tests, benchmarks and scripts: any path through src-main/<folder>/.
      fromOutside: { regex: `(?:^|/)${name(folder)}/(?!${allowed})`, message },
    }
  }
  const mainFiles = ['src-main/**']
  const outsideFiles = ['test/**', 'scripts/**', 'bin/**', '*.ts', '*.js', '*.mjs']
  const configs = [
    { files: mainFiles, rules: rule(domains.map((d) => doorsOf(d).fromMain)) },
    { files: outsideFiles, rules: rule(domains.map((d) => doorsOf(d).fromOutside)) },
  ]
  for (const domain of domains) {
    const others = domains.filter((d) => d !== domain)
    const othersFromMain = others.map((d) => doorsOf(d).fromMain)
    configs.push(
      { files: [`${domain.folder}/**`], rules: rule(othersFromMain) },
      { files: [`${domain.folder.replace(/^src-main\//, 'test/main/')}/**`], rules: rule(others.map((d) => doorsOf(d).fromOutside)) },
      ...domain.inner.map(({ files, ignores = [], patterns }) => ({ files, ignores, rules: rule([...othersFromMain, ...patterns]) })),
    )
  }
  return configs
}

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
  ...doorConfigs(),
  ...layerConfigs,
  {
    // One clock (src-shared/clock.ts): the time of day comes from the Clock handed in, so a test or a
    // replay sets it; elapsed time (a timeout, an idle moment) from performance.now(), which no one sets.
    files: ['src-main/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the time of day from the Clock passed in (SYSTEM_CLOCK by default), elapsed time from performance.now().',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time of day from the Clock passed in: new Date(clock.now()).',
        },
      ],
    },
  },
  {
    // Rules that need the types: a promise nobody awaits loses its failure (a sale's write, a
    // forwarding pass), and a switch over a union that misses a case lets a new state fall through.
    files: ['src-main/**/*.ts', 'src-shared/**/*.ts', 'src-renderer/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    // The release writer runs inside the last release's checkout, against that release's types.
    ignores: ['test/upgrade/release-writer.ts'],
    languageOptions: { parserOptions: { project: ['./tsconfig.node.json', './tsconfig.web.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
)

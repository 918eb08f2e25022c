/**
 * The docs say what the code does, so they cannot name what the code no longer has: every name the
 * docs (`docs/*.md`, the README) put in backticks is held to the code.
 * (a) a path of this repository (its first folder is one of the repository's) exists, or the code
 *     writes it (a folder made at run time); `*` stands for any name;
 * (b) a file name (`sale-flow.ts`, `config.json`) is a file of the repository, or the code names it;
 * (c) a name that looks like code (camelCase, PascalCase, SCREAMING_CASE, or called: `recover()`) is a
 *     word of the sources, tests, scripts or package.json;
 * (d) `npm run <script>` is a script of package.json.
 * Names of other projects and protocols that the docs cite (a vendor SDK's enum, a library's class)
 * are listed below with where they come from. Each failure names the document and line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const SELF = relative(ROOT, fileURLToPath(import.meta.url))
  .split(sep)
  .join('/')

/**
 * Words the docs cite that are not this code's: other projects' and protocols' names. Keep it short:
 * a name of this code that is missing is a doc to fix, never a word to add here.
 */
const NOT_OURS: ReadonlySet<string> = new Set([
  // The NEO 2 reader's protocol and its vendor's SDK headers (docs/neo2-protocol.md, docs/device-protocol.md).
  'ViVOtech',
  'ViVOpayV3',
  'IDT_VP3600',
  'RETURN_CODE',
  'DEVICE_NOT_READY',
  'COMMAND_CANCEL_OPERATION',
  'PRESS_KEY_CANCEL_OPERATION',
  'ANTENNA_ERROR',
  'SDK_BUSY_CMR',
  // serialport's parsers and mock binding, Electron, OpenSSL (docs/card-reader.md).
  'StartEndParser',
  'DelimiterParser',
  'InterByteTimeoutParser',
  'PacketLengthParser',
  'CanceledError',
  'lastWrite',
  'safeStorage',
  'ELECTRON_RUN_AS_NODE',
  'OSSL_PROVIDER',
  'ERR_OSSL_EVP_UNSUPPORTED',
  // Another terminal vendor's SDK, cited for a product default (docs/product-defaults.md).
  'tipAdjustAuth',
  'DUPLICATE_CHALLENGE',
  // Example store and terminal ids in the store's names (docs/store.md: store S, terminal T).
  'S_T',
  'S1_T',
])

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'out', 'dist', 'coverage'])

/** Repository-relative paths of every file and folder (folders end with '/'), build output and dependencies excluded. */
function walk(dir: string): string[] {
  const abs = join(ROOT, dir)
  if (!existsSync(abs)) return []
  const found: string[] = []
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) found.push(`${rel}/`, ...walk(rel))
    else if (entry.isFile()) found.push(rel)
  }
  return found
}

const TREE = walk('')
const PATHS = TREE.map((p) => p.replace(/\/$/, ''))
const FOLDER_NAMES: ReadonlySet<string> = new Set(TREE.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1).split('/').pop() as string))
const FILE_NAMES: ReadonlySet<string> = new Set(TREE.filter((p) => !p.endsWith('/')).map((p) => p.split('/').pop() as string))

/**
 * The code the docs are held to: the sources, tests, scripts, and the files at the root (package.json,
 * the build, lint and packaging configuration); the docs themselves are not.
 */
const CODE_DIRS = ['src-main', 'src-shared', 'src-renderer', 'test', 'scripts']
const CODE_FILE = /\.(?:[cm]?[jt]sx?|json|ya?ml|html|css|sh)$/
const CODE_TEXT = TREE.filter(
  (p) =>
    CODE_FILE.test(p) &&
    p !== SELF &&
    (CODE_DIRS.some((dir) => p.startsWith(`${dir}/`)) || (!p.includes('/') && p !== 'package-lock.json')),
)
  .map((file) => readFileSync(join(ROOT, file), 'utf8'))
  .join('\n')
const CODE_WORDS: ReadonlySet<string> = new Set(CODE_TEXT.match(/[A-Za-z_]\w*/g) ?? [])
/** Names the code builds from a prefix (`POS_QUEUE_${store}_${terminal}`): a doc's example of one is the code's. */
const CODE_PREFIXES = [...CODE_WORDS].filter((word) => /^[A-Z][A-Z0-9_]*_$/.test(word))
const SCRIPTS = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts)

/** This repository's kinds of file; a path with another extension (`src/pinblock.c`) is another project's. */
const OUR_EXTENSION = /\.(?:tsx?|[cm]?js|json|md|ya?ml|sh|css|html|sql)$/
const FILE_NAME = /^[\w-][\w.-]*\.(?:tsx?|[cm]?js|json|md|ya?ml|sh|css|html|sql)$/
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/
const PASCAL = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/
const SCREAMING = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/

interface Span {
  file: string
  line: number
  text: string
}

/** Inline code spans, outside fenced blocks. */
function spansOf(file: string): Span[] {
  const spans: Span[] = []
  let fenced = false
  readFileSync(join(ROOT, file), 'utf8')
    .split(/\r?\n/)
    .forEach((text, index) => {
      if (/^\s*(?:```|~~~)/.test(text)) {
        fenced = !fenced
        return
      }
      if (fenced) return
      for (const match of text.matchAll(/`([^`]+)`/g)) spans.push({ file, line: index + 1, text: (match[1] as string).trim() })
    })
  return spans
}

/** `<name>` in a doc stands for any name; `*` in a path for any file name. */
function patternOf(text: string, any: string): string {
  return text
    .split(/<[^>]*>|\*/)
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join(any)
}

function pathProblem(path: string): string | undefined {
  const bare = path.replace(/^(?:\.{1,2}\/)+/, '').replace(/\/$/, '')
  const first = bare.split('/')[0] as string
  // MIME types (`text/csv`), register names (`DFEF4B/4C/4D`), other projects' files: not this repository's.
  if (!FOLDER_NAMES.has(first) || (/\.\w+$/.test(bare) && !OUR_EXTENSION.test(bare))) return undefined
  // From the repository's root, or from a folder's (`txn/sale-flow.ts` is src-main's).
  const pattern = new RegExp(`(?:^|/)${patternOf(bare, '[^/]*')}$`)
  const exists = PATHS.some((p) => pattern.test(p))
  if (exists || CODE_TEXT.includes(bare)) return undefined
  return `the path ${path} is not in the repository`
}

function wordsProblems(text: string): string[] {
  const problems: string[] = []
  // `<store>` stands for a value: what is left beside it is checked as it stands.
  const plain = text.replace(/<[^>]*>/g, ' ')
  for (const match of plain.matchAll(/[\w.-]+(\()?/g)) {
    const token = match[0].replace(/\($/, '')
    if (FILE_NAME.test(token)) {
      if (!FILE_NAMES.has(token) && !CODE_TEXT.includes(token)) problems.push(`the file ${token} is not in the repository`)
      continue
    }
    const parts = token.split(/[.-]/).filter(Boolean)
    parts.forEach((word, i) => {
      const called = match[1] !== undefined && i === parts.length - 1 && /^[a-z]\w*$/i.test(word)
      if (!(called || CAMEL.test(word) || PASCAL.test(word) || SCREAMING.test(word))) return
      if (CODE_WORDS.has(word) || NOT_OURS.has(word)) return
      if (SCREAMING.test(word) && CODE_PREFIXES.some((prefix) => word.startsWith(prefix))) return
      problems.push(`${word} is named nowhere in the code`)
    })
  }
  return problems
}

function problemsOf(span: Span): string[] {
  const npm = /^npm run (\S+)/.exec(span.text)
  if (npm) {
    const script = new RegExp(`^${patternOf(npm[1] as string, '.+')}$`)
    return SCRIPTS.some((name) => script.test(name)) ? [] : [`npm run ${npm[1]}: no such script in package.json`]
  }
  if (/^(?:\.{1,2}\/)*[\w.*<>-]+(?:\/[\w.*<>-]+)+\/?$|^[\w.-]+\/$/.test(span.text)) {
    const problem = pathProblem(span.text)
    return problem === undefined ? [] : [problem]
  }
  return wordsProblems(span.text)
}

/** The folders a map (a fenced block under `heading`) gives under `src-main/`: its lines indented by two spaces. */
function mapFolders(file: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const start = text.indexOf(`\n${heading}\n`)
  if (start < 0) return []
  const block = /```\n([\s\S]*?)```/.exec(text.slice(start))?.[1] ?? ''
  const folders: string[] = []
  let inMain = false
  for (const line of block.split('\n')) {
    if (/^\S/.test(line)) inMain = line.startsWith('src-main/')
    const entry = /^ {2}([\w-]+(?:\/[\w-]+)*)\/(?:\s|$)/.exec(line)?.[1]
    if (inMain && entry !== undefined) folders.push(entry)
  }
  return folders
}

const MAPS: ReadonlyArray<[string, string]> = [
  ['README.md', '## Map of the code'],
  ['docs/architecture.md', '## Layout'],
]
const MAIN_FOLDERS = TREE.filter((p) => /^src-main\/[^/]+\/$/.test(p)).map((p) => p.slice('src-main/'.length, -1))

const DOCUMENTS = [...TREE.filter((p) => /^docs\/[^/]+\.md$/.test(p)), 'README.md']
const SPANS = DOCUMENTS.flatMap(spansOf)

describe('the names the docs give', () => {
  it('reads the docs and the code', () => {
    expect(DOCUMENTS.length).toBeGreaterThan(10)
    expect(SPANS.length).toBeGreaterThan(2000)
    expect(CODE_WORDS.has('answerOf')).toBe(true)
  })

  it('a name the code lost is found', () => {
    // The check itself: a name of no code, a missing file and a missing script are each refused.
    expect(problemsOf({ file: 'README.md', line: 1, text: 'AgentOperations.dispatch' })).toEqual([
      'AgentOperations is named nowhere in the code',
    ])
    expect(problemsOf({ file: 'README.md', line: 1, text: 'src-main/txn/no-such-flow.ts' })).toHaveLength(1)
    expect(problemsOf({ file: 'README.md', line: 1, text: 'no-such-flow.ts' })).toHaveLength(1)
    expect(problemsOf({ file: 'README.md', line: 1, text: 'npm run bench:nothing' })).toHaveLength(1)
    expect(problemsOf({ file: 'README.md', line: 1, text: 'txn/sale-flow.ts' })).toEqual([])
    expect(problemsOf({ file: 'README.md', line: 1, text: 'npm run bench:<name>' })).toEqual([])
  })

  it('are all in the code', () => {
    const problems = SPANS.flatMap((span) => problemsOf(span).map((problem) => `${span.file}:${span.line}: \`${span.text}\`: ${problem}`))
    expect(problems, problems.join('\n')).toEqual([])
  })

  it.each(MAPS)('the map of %s names every folder of src-main, and none that is gone', (file, heading) => {
    const named = mapFolders(file, heading)
    expect(named.length, `${file} has a map under "${heading}"`).toBeGreaterThan(10)
    const missing = MAIN_FOLDERS.filter((folder) => !named.some((entry) => entry.split('/')[0] === folder))
    const gone = named.filter((entry) => !existsSync(join(ROOT, 'src-main', entry)))
    expect({ missing, gone }).toEqual({ missing: [], gone: [] })
  })
})

/**
 * The repository stands alone: every document that code, tests, scripts and docs cite is in it.
 * (a) each markdown file named resolves to a file of the repository: a path with a folder must exist
 *     at that path (from the repository root, or from the citing file's folder), a bare name must
 *     exist somewhere in the repository;
 * (b) no text points at folders outside the repository;
 * (c) a section cited as `docs/<document> §N` is a numbered heading of that document.
 * Each failure names the citing file and line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, normalize, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const SELF = relative(ROOT, fileURLToPath(import.meta.url))
  .split(sep)
  .join('/')

/** Folders scanned as a whole, and single files at the root (configuration, README). */
const SCANNED_DIRS = ['src-main', 'src-shared', 'src-renderer', 'test', 'scripts', 'docs', 'bin', '.ci']
const TEXT_FILE = /\.(?:[cm]?[jt]sx?|json|ya?ml|md|html|css|sh)$/
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'out', 'dist', 'coverage'])
const SKIPPED_ROOT_FILES = new Set(['package-lock.json'])

/** Repository-relative paths (with '/') of every file under `dir`, build output and dependencies excluded. */
function walk(dir: string): string[] {
  const abs = join(ROOT, dir)
  if (!existsSync(abs)) return []
  const found: string[] = []
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) found.push(...walk(rel))
    else if (entry.isFile()) found.push(rel)
  }
  return found
}

function scannedFiles(): string[] {
  const rootFiles = readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isFile() && TEXT_FILE.test(e.name) && !SKIPPED_ROOT_FILES.has(e.name))
    .map((e) => e.name)
  const inDirs = SCANNED_DIRS.flatMap((dir) => walk(dir)).filter((f) => TEXT_FILE.test(f) || f.startsWith('.ci/') || f.startsWith('bin/'))
  return [...rootFiles, ...inDirs].filter((f) => f !== SELF).sort()
}

/** Every markdown file of the repository, by repository-relative path. */
const MARKDOWN_FILES: ReadonlySet<string> = new Set(walk('').filter((f) => f.endsWith('.md')))
const MARKDOWN_NAMES: ReadonlySet<string> = new Set([...MARKDOWN_FILES].map((f) => basename(f)))

interface Line {
  file: string
  number: number
  text: string
}

function linesOf(file: string): Line[] {
  if (!statSync(join(ROOT, file)).isFile()) return []
  return readFileSync(join(ROOT, file), 'utf8')
    .split(/\r?\n/)
    .map((text, i) => ({ file, number: i + 1, text }))
}

/** URLs name other sites' files (a GitHub README, say), not repository documents. */
const withoutUrls = (text: string): string => text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')

/** A markdown file name or path: a bare name, `docs/<name>`, `../docs/<name>`. */
const MARKDOWN_REF = /(?<![\w./-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-][\w.-]*\.md)(?![\w-])/g

function resolves(ref: string, citingFile: string): boolean {
  if (!ref.includes('/')) return MARKDOWN_NAMES.has(ref)
  const candidates = [normalize(ref), normalize(join(dirname(citingFile), ref))].map((p) => p.split(sep).join('/'))
  return candidates.some((p) => MARKDOWN_FILES.has(p))
}

/** Paths that lead out of the repository: the shared research and spec folders of a workspace. */
const OUTSIDE = [
  { pattern: /(?<![\w-])research\//, what: 'a research/ folder' },
  { pattern: /shared\/spec/, what: 'shared/spec' },
  { pattern: /\.\.\/shared/, what: '../shared' },
  { pattern: /\/work\/shared/, what: 'an absolute workspace path' },
]

/** A docs/ document followed by `§4`, `§3.2–§3.4`, `§3.2–3.4`, `§4.3, §4.4` or `§8 and §13`. */
const SECTION_CITE = /\b(docs\/[\w.-]+\.md)\s+(§\s?\d+(?:\.\d+)*(?:\s*(?:,|and|[–-])\s*§?\s?\d+(?:\.\d+)*)*)/g
const SECTION_NUMBER = /\d+(?:\.\d+)*/g
/** `## 3. Title`, `### 3.2 Title`, `## §3 Title`. */
const NUMBERED_HEADING = /^#{1,6}\s+(?:§\s?)?(\d+(?:\.\d+)*)\.?(?:\s|$)/

const headingCache = new Map<string, ReadonlySet<string>>()
function sectionsOf(doc: string): ReadonlySet<string> {
  let sections = headingCache.get(doc)
  if (!sections) {
    sections = new Set(
      readFileSync(join(ROOT, doc), 'utf8')
        .split(/\r?\n/)
        .map((line) => NUMBERED_HEADING.exec(line)?.[1])
        .filter((n): n is string => n !== undefined),
    )
    headingCache.set(doc, sections)
  }
  return sections
}

const LINES = scannedFiles().flatMap(linesOf)
const where = (line: Line): string => `${line.file}:${line.number}`

describe('document citations', () => {
  it('scans the sources, tests, scripts and docs', () => {
    expect(LINES.length).toBeGreaterThan(1000)
    expect(MARKDOWN_FILES.size).toBeGreaterThan(0)
  })

  it('every markdown file named is in the repository', () => {
    const problems: string[] = []
    for (const line of LINES) {
      for (const match of withoutUrls(line.text).matchAll(MARKDOWN_REF)) {
        const ref = match[1] as string
        if (!resolves(ref, line.file)) problems.push(`${where(line)}: ${ref} is not in the repository`)
      }
    }
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('nothing points outside the repository', () => {
    const problems: string[] = []
    for (const line of LINES) {
      for (const { pattern, what } of OUTSIDE) {
        if (pattern.test(withoutUrls(line.text))) problems.push(`${where(line)}: points at ${what}: ${line.text.trim()}`)
      }
    }
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('every cited section of a docs/ document is one of its numbered headings', () => {
    const problems: string[] = []
    for (const line of LINES) {
      for (const match of line.text.matchAll(SECTION_CITE)) {
        const doc = match[1] as string
        if (!MARKDOWN_FILES.has(doc)) continue // reported by the first check
        const sections = sectionsOf(doc)
        for (const section of (match[2] as string).match(SECTION_NUMBER) ?? []) {
          if (!sections.has(section)) problems.push(`${where(line)}: ${doc} has no section ${section}`)
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([])
  })
})

#!/usr/bin/env node
// Runs @doyensec/electronegativity over the Electron shell (src-main/electron, src-main/preload) and
// the renderer, and fails on any finding. The tool itself exits 0 whatever it finds (its CLI has no
// failing exit code: doyensec/electronegativity issue #108), so its result is read here.
// AvailableSecurityFixesGlobalCheck needs the network: excluded.
import { createRequire } from 'node:module'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const require = createRequire(import.meta.url)
const run = require('@doyensec/electronegativity')
const electronVersion = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')).version

// Only the code that configures Electron and the pages it loads are scanned.
const scan = mkdtempSync(join(tmpdir(), 'pos-eneg-'))
for (const dir of ['src-main/electron', 'src-main/preload', 'src-renderer']) cpSync(dir, join(scan, dir), { recursive: true })
const quiet = console.log
console.log = () => undefined
let result
try {
  result = await run({
    input: scan,
    electronVersionOverride: electronVersion,
    excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
    isRelative: true,
  })
} finally {
  console.log = quiet
  rmSync(scan, { recursive: true, force: true })
}
const findings = result.issues ?? []
for (const f of findings)
  console.log(
    `electronegativity: ${f.id} [${f.severity?.name ?? ''}/${f.confidence?.name ?? ''}] ${f.file ?? ''}:${f.location?.line ?? ''} ${f.description ?? ''}`,
  )
for (const e of result.errors ?? []) console.log(`electronegativity: could not parse ${e.file}: ${e.message ?? e.error ?? ''}`)
// "1 finding", "2 findings": a count in plain words, as src-shared/counted.ts says them.
const counted = (n, one) => `${n} ${n === 1 ? one : `${one}s`}`
console.log(
  `electronegativity ${electronVersion}: ${result.atomicChecks} atomic and ${result.globalChecks} global checks, ${counted(findings.length, 'finding')}, ${counted((result.errors ?? []).length, 'parse error')}`,
)
process.exit(findings.length === 0 && (result.errors ?? []).length === 0 ? 0 : 1)

/**
 * `pos-agent audit verify`: whether this terminal's audit trail still proves itself, in plain words,
 * and if not where it breaks (a record changed, records deleted, the end cut off, the last record not
 * the head the keychain or a printed Z-report kept). It reads the journal and the keychain only; the
 * running agent goes on meanwhile. Exit 0 intact, 6 not (README "Exit codes"), 4 without a keychain.
 */
import { checkAuditFile, parsePrintedHead, type PrintedHead, type Runtime } from '../../app'
import { counted } from '../../../src-shared/counted'
import { EXIT } from '../exit-codes'

export async function auditVerifyCommand(runtime: Runtime, options: { json: boolean; heads: readonly string[] }): Promise<number> {
  const printed: PrintedHead[] = []
  for (const text of options.heads) {
    const head = parsePrintedHead(text)
    if (!head) {
      console.error(`--head ${text}: expected the record number and check value printed on the Z-report, e.g. 1234:3F9A2B1C`)
      return EXIT.usage
    }
    printed.push(head)
  }
  const found = await checkAuditFile(runtime.secrets, runtime.dataDir, printed)
  const say = (code: number, intact: boolean | undefined, text: string, extra: Record<string, unknown> = {}): number => {
    if (options.json) console.log(JSON.stringify({ intact, message: text, ...extra }))
    else console.log(text)
    return code
  }
  switch (found.state) {
    case 'noTrail':
      return say(EXIT.ok, true, `no audit trail yet in ${runtime.dataDir} (the agent starts one at its first start)`)
    case 'noKeychain':
      return say(
        EXIT.keychain,
        undefined,
        "this computer has no working OS keychain: the audit trail's key lives only inside the running agent (training), so it cannot be checked from here; the agent checks it itself at start and at idle",
      )
    case 'notSealed':
      return say(
        EXIT.ok,
        true,
        `the audit trail (${counted(found.records, 'record')}) is not sealed yet: the agent seals it at its next start`,
      )
    case 'keyMissing':
      return say(
        EXIT.auditBroken,
        false,
        `the audit trail (${counted(found.records, 'record')}) cannot be proven: the keychain no longer holds its key; restore the keychain from its backup`,
      )
    case 'checked': {
      const { verdict } = found
      const head = verdict.head ? { seq: verdict.head.seq, check: verdict.head.mac.slice(0, 8).toUpperCase() } : undefined
      const extra = {
        records: verdict.records,
        head,
        problems: verdict.problems.map(({ kind, from, to, words }) => ({ kind, from, to, words })),
      }
      const note = verdict.unprovable ? `\nnote: ${verdict.unprovable.words}` : ''
      if (verdict.intact)
        return say(
          EXIT.ok,
          true,
          `the audit trail is intact: ${counted(verdict.records, 'record')}${head ? `, the last one record ${head.seq} (check ${head.check})` : ''}, every one sealed and in order, and its last record is the head kept outside the file${note}`,
          extra,
        )
      const lines = verdict.problems.map((p) => `  - ${p.words}`).join('\n')
      return say(
        EXIT.auditBroken,
        false,
        `the audit trail was altered (${counted(verdict.records, 'record')} in the file):\n${lines}${note}`,
        extra,
      )
    }
  }
}

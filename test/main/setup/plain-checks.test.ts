/**
 * Every check result the setup page can show is read by a store manager: its headline and its next
 * step are held to the plain-words rule (test/support/internal-words.ts) plus the setup's own
 * jargon: no configuration field name, no protocol or file-format word. The technical words stay in
 * the details line. The real checks, run against a training host and a missing reader, report only
 * areas the page has plain words for.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkHost, checkReader, checkSignature, signatureCheckId, type Finding } from '../../../src-main/app'
import { trainingConfig, type AgentConfig } from '../../../src-main/config'
import { merchantTransId } from '../../../src-main/journal/transaction-ids'
import { OTHER_CHECK, PLAIN_CHECKS, plainCheck } from '../../../src-main/setup'
import { startTrainingHost, type TrainingHost } from '../../../src-main/training/host'
import { INTERNAL_WORDS, internalWordsIn } from '../../support/internal-words'

/** What a manager must not have to read on the setup page. */
const SETUP_JARGON: ReadonlyArray<[string, RegExp]> = [
  ...INTERNAL_WORDS,
  ['a configuration field name', /\b[a-z]+\.[a-z]+[A-Za-z]*\b/],
  [
    'a protocol or format word',
    /\b(TLS\w*|SSL|NTP|CA|PEM|HTTPS?|DNS|TCP|JSON|URL|DateTime|MsgID|KeyID|SignType|tty\w*|dialout|ECONN\w+)\b/i,
  ],
  ['a unit abbreviation', /\d+ ?(h|ms|s)\b/],
  ['"agent" for the terminal', /\bagent\b/i],
]

const LEVELS = ['ok', 'warn', 'fail'] as const

function problemsOf(texts: string[]): string[] {
  return texts.flatMap((text) => internalWordsIn(text, SETUP_JARGON))
}

describe('the setup page says each check result in plain words', () => {
  it('every area and level the page can show: its name, headline and next step', () => {
    const shown: string[] = []
    for (const plain of [...Object.values(PLAIN_CHECKS), OTHER_CHECK])
      for (const level of LEVELS) {
        const words = plain.words[level]
        shown.push(plain.area, words.text, ...(words.fix ? [words.fix] : []))
        if (level !== 'ok') expect(words.fix, `${plain.area} ${level} says what to do`).toBeTruthy()
      }
    expect(problemsOf(shown)).toEqual([])
  })

  it('the doctor words go to the details line, never to the headline', () => {
    const check = plainCheck({
      level: 'fail',
      area: 'host',
      text: 'acq.example:443 unreachable or not trusted (connect ECONNREFUSED 127.0.0.1:443)',
      fix: 'check the network, host.offlineBaseUrl, and host.caFile if the acquirer uses a private CA',
    })
    expect(check).toMatchObject({ id: 'connection', level: 'fail', area: 'Connection to your acquirer' })
    expect(problemsOf([check.area, check.text, check.fix ?? ''])).toEqual([])
    expect(check.detail).toContain('host.caFile')
    expect(check.detail).toContain('ECONNREFUSED')
    expect(plainCheck({ level: 'warn', area: 'something new', text: 'x' })).toMatchObject({ id: 'other', detail: 'something new: x' })
  })

  describe('what the real checks report', () => {
    const work = mkdtempSync(join(tmpdir(), 'pos-plain-checks-'))
    const AID = 'PLAIN-ACQ'
    const KEY = 'plain-check-test-signing-key-012'
    let host: TrainingHost
    beforeAll(async () => {
      host = await startTrainingHost({ stateDir: join(work, 'host'), signingKeys: { [AID]: KEY } })
    })
    afterAll(async () => {
      await host.close()
      rmSync(work, { recursive: true, force: true })
    })

    const config = (url: string): AgentConfig => {
      const base = trainingConfig(url, host.caFile, work).config
      return { ...base, host: { ...base.host, aid: AID }, device: { ...base.device, path: join(work, 'no-such-reader') } }
    }

    async function findings(url: string, key: string): Promise<Finding[]> {
      const found: Finding[] = []
      const add = (level: Finding['level'], area: string, text: string, fix?: string) =>
        found.push({ level, area, text, ...(fix ? { fix } : {}) })
      if (await checkHost(config(url), add)) await checkSignature(config(url), key, add)
      await checkReader(config(url), add)
      return found
    }

    it('a good key, a wrong one, an unreachable acquirer, a missing reader: all known areas, all plain', async () => {
      const closed = new URL(host.url)
      closed.port = '1'
      const all = [...(await findings(host.url, KEY)), ...(await findings(host.url, 'x'.repeat(32))), ...(await findings(closed.href, KEY))]
      // A wrong key: the host's refusal cannot be verified with it, so the check cannot confirm either way.
      expect(new Set(all.map((f) => `${f.area}/${f.level}`))).toEqual(
        new Set(['host TLS/ok', 'clock/ok', 'signature/ok', 'signature/warn', 'host/fail', 'card reader/fail']),
      )
      const checks = all.map(plainCheck)
      expect(checks.filter((c) => c.id === 'other')).toEqual([])
      expect(problemsOf(checks.flatMap((c) => [c.area, c.text, c.fix ?? '']))).toEqual([])
    }, 30_000)
  })
})

describe('the signature check reverses an id no payment of this terminal can have', () => {
  it('never a merchantTransID, whatever the terminalId, epoch and sequence, nor a follow-up of one', () => {
    const id = signatureCheckId()
    expect(id).toMatch(/^SETUPCHECK[0-9A-F]{16}$/)
    expect(Buffer.byteLength(id)).toBeLessThanOrEqual(64)
    expect(signatureCheckId()).not.toBe(id)
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/),
        fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{8}$/),
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.constantFrom('', '-V1', '-T2', '-C9999'),
        (terminalId, epoch, sequence, followUp) => {
          const real = merchantTransId(terminalId, epoch, sequence) + followUp
          expect(real).toContain('-')
          expect(signatureCheckId()).not.toBe(real)
        },
      ),
    )
  })
})

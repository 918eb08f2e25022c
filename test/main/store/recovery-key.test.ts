/**
 * The recovery key file (src-main/store/recovery-key.ts): scrypt and AES-256-GCM, opened only with its
 * passphrase and only as written (its parameters are authenticated); files of the older PBES2 kind
 * still open and say so; a re-wrap keeps the key; the passphrase rule refuses repeated characters,
 * common passwords and dictionary words, with the reason. The time to open a key is printed, not asserted.
 */
import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { makeRecoveryKeyPair, openRecoveryPrivateKey, passphraseProblem, wrapRecoveryKey } from '../../../src-main/store'

const PASSPHRASE = 'a recovery file for the key tests'

describe('the recovery key file', () => {
  it('opens with its passphrase only, and prints how long the opening takes', () => {
    const pair = makeRecoveryKeyPair(PASSPHRASE)
    expect(pair.privateKeyPem).toMatch(
      /^-----BEGIN POS-AGENT STORE RECOVERY KEY-----\n[\s\S]+\n-----END POS-AGENT STORE RECOVERY KEY-----\n$/,
    )
    const started = performance.now()
    const opened = openRecoveryPrivateKey(pair.privateKeyPem, PASSPHRASE)
    console.log(`opening a recovery key (scrypt N=2^17, r=8, p=1): ${(performance.now() - started).toFixed(0)} ms`)
    expect(opened).toMatchObject({ publicKey: pair.publicKey, legacy: false })
    expect(opened.jwk.x).toBe(pair.publicKey)
    expect(() => openRecoveryPrivateKey(pair.privateKeyPem, `${PASSPHRASE}!`)).toThrow(/wrong passphrase/)
  })

  it('refuses a file whose parameters or public key were changed', () => {
    const pair = makeRecoveryKeyPair(PASSPHRASE)
    const body = pair.privateKeyPem.split('\n').slice(1, -2).join('')
    const file = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as Record<string, unknown>
    const armour = (content: object) =>
      `-----BEGIN POS-AGENT STORE RECOVERY KEY-----\n${Buffer.from(JSON.stringify(content)).toString('base64')}\n-----END POS-AGENT STORE RECOVERY KEY-----\n`
    expect(() => openRecoveryPrivateKey(armour({ ...file, N: 2 ** 14 }), PASSPHRASE)).toThrow(/wrong passphrase/)
    expect(() => openRecoveryPrivateKey(armour({ ...file, N: 2 ** 30 }), PASSPHRASE)).toThrow(/damaged, or of a kind/)
    const other = makeRecoveryKeyPair(PASSPHRASE).publicKey
    expect(() => openRecoveryPrivateKey(armour({ ...file, publicKey: other }), PASSPHRASE)).toThrow(/wrong passphrase/)
    expect(() => openRecoveryPrivateKey(pair.privateKeyPem.slice(0, 80), PASSPHRASE)).toThrow(/cut short/)
  })

  it('still opens an older PBES2 file, says it is one, and a re-wrap keeps the same key', () => {
    const { privateKey } = generateKeyPairSync('x25519')
    const old = privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'aaaaaaaaaaaa' }).toString()
    const opened = openRecoveryPrivateKey(old, 'aaaaaaaaaaaa')
    expect(opened.legacy).toBe(true)
    const rewrapped = wrapRecoveryKey(opened.jwk, PASSPHRASE)
    expect(openRecoveryPrivateKey(rewrapped, PASSPHRASE)).toEqual({ ...opened, legacy: false })
  })

  it.each([
    ['aaaaaaaaaaaa', /too easy to guess. Repeated characters like "aaa" are easy to guess/],
    ['passwordpassword', /too easy to guess/],
    ['qwertyuiop123', /too easy to guess. This is similar to a commonly used password/],
    ['Password2026!', /too easy to guess/],
    ['short one', /at least 12 characters/],
  ])('refuses the passphrase %s, saying why', (passphrase, why) => {
    expect(passphraseProblem(passphrase)).toMatch(why)
    expect(() => makeRecoveryKeyPair(passphrase)).toThrow(why)
  })

  it('takes a passphrase of several words that do not belong together', () => {
    expect(passphraseProblem('copper lantern under seventeen clouds')).toBeUndefined()
  })
})

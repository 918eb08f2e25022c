import { describe, expect, it } from 'vitest'
import { MemorySecretStore, dataKeyAccount, type SecretStore } from '../../../src-main/keychain'
import {
  DATA_KEY_BYTES,
  DataKeyInvalidError,
  DataKeyMissingError,
  FieldSealer,
  SEALED_ENVELOPE_OVERHEAD,
  SealedFieldError,
  sealedFieldAad,
  wipe,
} from '../../../src-main/journal/sealed-fields'
import { catchError } from './journal-harness'

const TERMINAL = 'T-0001'
const TRACK2 = ';4111111111111111=29122011000012345678?'
const AAD = sealedFieldAad('card_data', 'sale-1', 'track2')

const sealer = async (store: SecretStore = new MemorySecretStore()) => FieldSealer.open(store, TERMINAL, { create: true })

async function failure(fn: () => unknown): Promise<SealedFieldError> {
  const error = catchError(fn)
  expect(error).toBeInstanceOf(SealedFieldError)
  expect(error).toMatchObject({ code: 'SEALED_FIELD_UNREADABLE' })
  return error as SealedFieldError
}

describe('FieldSealer: sealing', () => {
  it('round-trips strings and binary, and the envelope is version, key id, nonce, tag, ciphertext', async () => {
    const s = await sealer()
    const envelope = s.seal(AAD, TRACK2)
    expect(envelope.length).toBe(SEALED_ENVELOPE_OVERHEAD + Buffer.byteLength(TRACK2))
    expect(envelope[0]).toBe(1)
    expect(envelope.subarray(1, 5).toString('hex')).toBe(s.keyId)
    expect(FieldSealer.keyIdOf(envelope)).toBe(s.keyId)
    expect(s.open(AAD, envelope).toString('utf8')).toBe(TRACK2)

    const pinBlock = Buffer.from('0412ac89ffffff9e5f4a0b1c2d3e4f50', 'hex')
    expect(s.open(AAD, s.seal(AAD, pinBlock)).equals(pinBlock)).toBe(true)
    expect(s.open(AAD, s.seal(AAD, Buffer.alloc(0))).length).toBe(0)
  })

  it('the envelope never contains the plaintext, and a Buffer plaintext is left to the caller to wipe', async () => {
    const s = await sealer()
    const plaintext = Buffer.from(TRACK2)
    const envelope = s.seal(AAD, plaintext)
    expect(envelope.includes(Buffer.from('4111111111111111'))).toBe(false)
    expect(envelope.includes(plaintext)).toBe(false)
    expect(plaintext.toString()).toBe(TRACK2)
  })

  it('uses a fresh nonce for every seal (10 000 seals of the same value, no repeat)', async () => {
    const s = await sealer()
    const nonces = new Set<string>()
    const ciphertexts = new Set<string>()
    for (let i = 0; i < 10_000; i++) {
      const envelope = s.seal(AAD, TRACK2)
      nonces.add(envelope.subarray(5, 17).toString('hex'))
      ciphertexts.add(envelope.subarray(33).toString('hex'))
    }
    expect(nonces.size).toBe(10_000)
    expect(ciphertexts.size).toBe(10_000)
  })

  it('a ciphertext copied to another row or another field does not open', async () => {
    const s = await sealer()
    const envelope = s.seal(AAD, TRACK2)
    expect((await failure(() => s.open(sealedFieldAad('card_data', 'sale-2', 'track2'), envelope))).reason).toBe('tampered')
    expect((await failure(() => s.open(sealedFieldAad('card_data', 'sale-1', 'pan'), envelope))).reason).toBe('tampered')
    expect((await failure(() => s.open(sealedFieldAad('queue', 'sale-1', 'track2'), envelope))).reason).toBe('tampered')
  })

  it('any flipped byte (nonce, tag, ciphertext, version, key id) fails, never garbage plaintext', async () => {
    const s = await sealer()
    const envelope = s.seal(AAD, TRACK2)
    const reasons = new Set<string>()
    for (let i = 0; i < envelope.length; i++) {
      const tampered = Buffer.from(envelope)
      tampered[i] = (tampered[i] ?? 0) ^ 0x01
      reasons.add((await failure(() => s.open(AAD, tampered))).reason)
    }
    expect([...reasons].sort()).toEqual(['tampered', 'unknownVersion', 'wrongKey'])
    expect((await failure(() => s.open(AAD, envelope.subarray(0, SEALED_ENVELOPE_OVERHEAD - 1)))).reason).toBe('malformed')
  })

  it('a different key fails, also when the envelope is relabelled with that key id', async () => {
    const a = await sealer()
    const b = await sealer()
    expect(a.keyId).not.toBe(b.keyId)
    const envelope = a.seal(AAD, TRACK2)
    expect((await failure(() => b.open(AAD, envelope))).reason).toBe('wrongKey')
    const relabelled = Buffer.from(envelope)
    Buffer.from(b.keyId, 'hex').copy(relabelled, 1)
    expect((await failure(() => b.open(AAD, relabelled))).reason).toBe('tampered')
  })

  it('refuses ambiguous AAD parts', () => {
    expect(() => sealedFieldAad('card:data', 1, 'track2')).toThrow(TypeError)
    expect(() => sealedFieldAad('card_data', '', 'track2')).toThrow(TypeError)
    expect(sealedFieldAad('card_data', 42n, 'icc')).toBe('card_data:42:icc')
  })

  it('wipe zero-fills plaintext buffers', async () => {
    const s = await sealer()
    const opened = s.open(AAD, s.seal(AAD, TRACK2))
    wipe(opened, undefined)
    expect(opened.every((byte) => byte === 0)).toBe(true)
  })
})

describe('FieldSealer: the data key', () => {
  it('is created as 32 random bytes under dataKeyAccount only when allowed; the key id is not the key', async () => {
    const store = new MemorySecretStore()
    const s = await FieldSealer.open(store, TERMINAL, { create: true })
    const stored = await store.get(dataKeyAccount(TERMINAL))
    const key = Buffer.from(stored ?? '', 'base64')
    expect(key.length).toBe(DATA_KEY_BYTES)
    expect(s.keyId).toMatch(/^[0-9a-f]{8}$/)
    expect(key.toString('hex')).not.toContain(s.keyId)

    const again = await FieldSealer.open(store, TERMINAL, { create: false })
    expect(again.keyId).toBe(s.keyId)
    expect(await store.get(dataKeyAccount(TERMINAL))).toBe(stored)
    expect(again.open(AAD, s.seal(AAD, TRACK2)).toString()).toBe(TRACK2)
  })

  it('missing while encrypted rows exist (create=false): DataKeyMissingError, and no key is made', async () => {
    const store = new MemorySecretStore()
    const error = await FieldSealer.open(store, TERMINAL, { create: false }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DataKeyMissingError)
    expect(error).toMatchObject({ code: 'DATA_KEY_MISSING', terminalId: TERMINAL, account: dataKeyAccount(TERMINAL), retryable: false })
    const message = (error as Error).message
    expect(message).toContain('stops taking offline payments')
    expect(message).toContain('never deleted')
    expect(message).toContain('restore the keychain entry')
    expect(await store.get(dataKeyAccount(TERMINAL))).toBeUndefined()
  })

  it('a keychain entry that is not a 32-byte key is DataKeyInvalidError and is left as it is', async () => {
    const store = new MemorySecretStore()
    await store.set(dataKeyAccount(TERMINAL), Buffer.alloc(16, 1).toString('base64'))
    await expect(FieldSealer.open(store, TERMINAL, { create: true })).rejects.toBeInstanceOf(DataKeyInvalidError)
    expect(await store.get(dataKeyAccount(TERMINAL))).toBe(Buffer.alloc(16, 1).toString('base64'))
  })

  it('a keychain that drops the new key is caught at once', async () => {
    const forgetful: SecretStore = {
      kind: 'process-memory',
      get: async () => undefined,
      set: async () => undefined,
      delete: async () => false,
    }
    await expect(FieldSealer.open(forgetful, TERMINAL, { create: true })).rejects.toMatchObject({ code: 'DATA_KEY_INVALID' })
  })
})

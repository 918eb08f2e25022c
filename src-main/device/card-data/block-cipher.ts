/**
 * Raw ECB block operations on node:crypto for DUKPT and PIN blocks. Node 20 (OpenSSL 3) refuses
 * `des-ecb`, so single DES runs as `des-ede3-ecb` with K‖K‖K and 2-key TDES as K1‖K2‖K1
 * (docs/card-reader.md §4.5). Only `des-ede3-ecb` and `aes-*-ecb` are used, so a single cipher check under
 * Electron's BoringSSL covers everything (docs/card-reader.md §4.5, unverified there).
 */
import { createCipheriv, createDecipheriv } from 'node:crypto'

export class BlockCipherError extends Error {
  override readonly name = 'BlockCipherError'
  readonly code = 'badLength' as const
}

function run(algorithm: string, key: Uint8Array, data: Uint8Array, blockSize: number, decrypt: boolean): Buffer {
  if (data.length === 0 || data.length % blockSize !== 0)
    throw new BlockCipherError(`${algorithm} data must be whole ${blockSize}-byte blocks, got ${data.length} bytes`)
  const cipher = decrypt ? createDecipheriv(algorithm, key, null) : createCipheriv(algorithm, key, null)
  cipher.setAutoPadding(false)
  return Buffer.concat([cipher.update(data), cipher.final()])
}

function tdesKey(key: Uint8Array): Buffer {
  if (key.length === 8) return Buffer.concat([key, key, key])
  if (key.length === 16) return Buffer.concat([key, key.subarray(0, 8)])
  if (key.length === 24) return Buffer.from(key)
  throw new BlockCipherError(`a DES/TDES key is 8, 16 or 24 bytes, got ${key.length}`)
}

/** DES (8-byte key), 2-key TDES (16) or 3-key TDES (24), ECB. */
export function tdesEncrypt(key: Uint8Array, data: Uint8Array): Buffer {
  return run('des-ede3-ecb', tdesKey(key), data, 8, false)
}

export function tdesDecrypt(key: Uint8Array, data: Uint8Array): Buffer {
  return run('des-ede3-ecb', tdesKey(key), data, 8, true)
}

function aesAlgorithm(key: Uint8Array): string {
  if (key.length === 16 || key.length === 24 || key.length === 32) return `aes-${key.length * 8}-ecb`
  throw new BlockCipherError(`an AES key is 16, 24 or 32 bytes, got ${key.length}`)
}

export function aesEncrypt(key: Uint8Array, data: Uint8Array): Buffer {
  return run(aesAlgorithm(key), key, data, 16, false)
}

export function aesDecrypt(key: Uint8Array, data: Uint8Array): Buffer {
  return run(aesAlgorithm(key), key, data, 16, true)
}

export function xorBytes(a: Uint8Array, b: Uint8Array): Buffer {
  if (a.length !== b.length) throw new BlockCipherError(`cannot XOR ${a.length} bytes with ${b.length} bytes`)
  const out = Buffer.allocUnsafe(a.length)
  for (let i = 0; i < a.length; i++) out[i] = (a[i] as number) ^ (b[i] as number)
  return out
}

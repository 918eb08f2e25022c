/**
 * Operator PINs at rest: scrypt (RFC 7914) with a random 16-byte salt per PIN, stored as
 * `scrypt$N$r$p$salt$hash` (base64url) so that the cost can grow without breaking older hashes.
 * N = 2^15, r = 8, p = 1 costs 32 MiB and tens of milliseconds per check: a copied journal cannot be
 * read back into PINs cheaply, while the counter signs in without a wait. A 4 to 8 digit PIN is not
 * strong by itself; against guessing at the counter or over the API its strength is the lockout
 * (operator-store.ts).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

export interface PinHashCost {
  N: number
  r: number
  p: number
}

export const DEFAULT_PIN_COST: PinHashCost = { N: 2 ** 15, r: 8, p: 1 }
const KEY_BYTES = 32

function derive(pin: string, salt: Buffer, cost: PinHashCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r }
  return new Promise((resolve, reject) => scrypt(pin, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))))
}

export async function hashPin(pin: string, cost: PinHashCost = DEFAULT_PIN_COST): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(pin, salt, cost)
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Whether `pin` is the one `stored` was made from; false for a stored value this code cannot read. */
export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false
  const expected = Buffer.from(key, 'base64url')
  const derived = await derive(pin, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) })
  return derived.length === expected.length && timingSafeEqual(derived, expected)
}

/**
 * How the operators' rules hash and check PINs (operators.ts): scrypt at a cost. A role of its own so
 * that what the rules do is countable: an unknown number, a locked operator and a wrong PIN must each
 * cost exactly one check, or the time of an answer tells them apart.
 */
export interface PinHasher {
  hash(pin: string): Promise<string>
  matches(pin: string, stored: string): Promise<boolean>
}

export function scryptPinHasher(cost: PinHashCost = DEFAULT_PIN_COST): PinHasher {
  return { hash: (pin) => hashPin(pin, cost), matches: pinMatches }
}

/**
 * One gateway message by hand, for the technician's tools (`pos-agent sign`, `verify`, `send`): the
 * signing key read from the keychain, the string to sign built by the signer's own rule (the key's
 * line masked by its check value), a signature checked, one request sent to the configured host and
 * its outcome. The command line prints what comes back; the signer and the client stay in
 * src-main/gateway.
 */
import {
  keyCheckValue,
  readSigningKey,
  sign,
  stringToSign,
  verifySignature,
  type GatewayOutcome,
  type OperationKind,
  type SignType,
} from '../gateway'
import type { SecretStore } from '../keychain'
import { openHostClient } from './host-connection'
import type { Runtime } from './runtime'

export type { GatewayOutcome, OperationKind, SignType }

export interface SignInput {
  method: string
  path: string
  dateTime: string
  msgId: string
  signType: SignType
  body: Buffer
}

/** A request as the agent would sign it with `aid`'s key: the string to sign (key masked) and the signature. */
export async function signByHand(
  secrets: SecretStore,
  aid: string,
  input: SignInput,
): Promise<{ stringToSign: string; signature: string }> {
  const key = await readSigningKey(secrets, aid)
  const signed = { ...input, body: input.method === 'GET' ? undefined : input.body }
  return {
    stringToSign: stringToSign(signed, `<signing key, KCV ${keyCheckValue(key)}>`).toString('utf8'),
    signature: sign(signed, input.signType, key),
  }
}

/**
 * A received response's or notification's signature against `aid`'s key, and the one expected. It
 * always includes its body line (docs/gateway.md §3 "Checking a response").
 */
export async function verifyByHand(
  secrets: SecretStore,
  aid: string,
  input: SignInput & { authorization: string },
): Promise<{ valid: boolean; expected: string }> {
  const key = await readSigningKey(secrets, aid)
  return { valid: verifySignature(input, input.signType, key, input.authorization), expected: sign(input, input.signType, key) }
}

/** One request, signed and sent to the configured host as it is (no body checks), and its outcome. */
export async function sendByHand(
  runtime: Runtime,
  kind: OperationKind,
  body: unknown,
  originalId: string | undefined,
): Promise<GatewayOutcome> {
  const connection = await openHostClient(runtime)
  try {
    return await connection.client.sendUnchecked(kind, body, originalId)
  } finally {
    await connection.close()
  }
}

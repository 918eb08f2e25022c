/**
 * `pos-agent sign` and `pos-agent verify`: for integrators chasing a rejected signature. They show
 * the exact string to sign (with the key line masked) and the signature the agent computes.
 */
import { keyCheckValue, sign, stringToSign, verifySignature, type SignType } from '../../gateway'
import { EXIT } from '../exit-codes'

export interface SignInput {
  method: string
  path: string
  dateTime: string
  msgId: string
  signType: SignType
  body: Buffer
}

/** The string to sign as text, built by the same rule with line 4 replaced by the key's check value. */
export function maskedStringToSign(input: SignInput, key: string): string {
  const body = input.method === 'GET' ? undefined : input.body
  return stringToSign({ ...input, body }, `<signing key, KCV ${keyCheckValue(key)}>`).toString('utf8')
}

export function signCommand(input: SignInput, key: string, json: boolean): number {
  const body = input.method === 'GET' ? undefined : input.body
  const signature = sign({ ...input, body }, input.signType, key)
  if (json) {
    console.log(JSON.stringify({ stringToSign: maskedStringToSign(input, key), signType: input.signType, signature }))
  } else {
    console.log('String to sign (lines joined by LF, no trailing newline; line 4 is the signing key, masked here):')
    console.log('----')
    console.log(maskedStringToSign(input, key))
    console.log('----')
    console.log(`SignType: ${input.signType}`)
    console.log(`Authorization: ${signature}`)
  }
  return EXIT.ok
}

export function verifyCommand(input: SignInput & { authorization: string }, key: string, json: boolean): number {
  // A received response or notification always includes its body line (docs/gateway.md §3 "Checking a response").
  const valid = verifySignature(input, input.signType, key, input.authorization)
  const expected = sign(input, input.signType, key)
  if (json) console.log(JSON.stringify({ valid, expected, received: input.authorization }))
  else if (valid) console.log('signature valid')
  else {
    console.log('signature does NOT match: do not process this message')
    console.log(`expected Authorization: ${expected}`)
    console.log(
      'check the signing key (`pos-agent key status` shows its check value), the DateTime and MsgID headers, the path, and that the body bytes are exactly those received',
    )
  }
  return valid ? EXIT.ok : EXIT.signatureMismatch
}

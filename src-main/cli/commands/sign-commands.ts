/**
 * `pos-agent sign` and `pos-agent verify`: for integrators chasing a rejected signature. They show
 * the exact string to sign (with the key line masked) and the signature the agent computes; the key
 * and the signer's rule are the composition root's (app/gateway-by-hand.ts), the words are here.
 */
import type { SignType } from '../../app'
import { EXIT } from '../exit-codes'

export function signCommand(signed: { stringToSign: string; signature: string }, signType: SignType, json: boolean): number {
  if (json) {
    console.log(JSON.stringify({ stringToSign: signed.stringToSign, signType, signature: signed.signature }))
  } else {
    console.log('String to sign (lines joined by LF, no trailing newline; line 4 is the signing key, masked here):')
    console.log('----')
    console.log(signed.stringToSign)
    console.log('----')
    console.log(`SignType: ${signType}`)
    console.log(`Authorization: ${signed.signature}`)
  }
  return EXIT.ok
}

export function verifyCommand(checked: { valid: boolean; expected: string }, authorization: string, json: boolean): number {
  const { valid, expected } = checked
  if (json) console.log(JSON.stringify({ valid, expected, received: authorization }))
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

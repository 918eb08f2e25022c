/**
 * The simulated PIN pad reading the agent's command data (layouts in docs/device-protocol.md §7):
 * 02-40 `timeout(1) + TLVs` and 60-12 `ComFlag(1) + TLVs`. Anything it cannot read is answered
 * with status 05 Incorrect Parameter, as a reader would.
 */
import { decodeTlv, findTlv } from '../../device/card-data'
import type { Tlv } from '../../device/card-data'
import type { ActivationParams } from './sim-card-data'

function tlvs(bytes: Buffer): Tlv[] | undefined {
  try {
    return decodeTlv(bytes, { padding: 'zeroOnly' })
  } catch {
    return undefined
  }
}

/** Group-0 defaults when a tag is omitted (IDG p.502): 9C 00, 5F2A 0840, 9F02 1; DFEF37 all interfaces. */
export function parseActivation(data: Buffer): ActivationParams | undefined {
  const timeoutSeconds = data[0]
  const items = tlvs(data.subarray(1))
  if (!timeoutSeconds || !items) return undefined
  const fallback = findTlv(items, 'DFEF3C')?.value[0] === 0x01
  return {
    timeoutSeconds,
    interfaces: findTlv(items, 'DFEF37')?.value[0] ?? 0x07,
    fallback,
    amount: findTlv(items, '9F02')?.value ?? Buffer.from('000000000001', 'hex'),
    currency: findTlv(items, '5F2A')?.value ?? Buffer.from('0840', 'hex'),
    transactionType: findTlv(items, '9C')?.value[0] ?? 0x00,
  }
}

export interface HostResponse {
  /** ComFlag 01: the host answered; 00: unable to go online. */
  online: boolean
  responseCode: Buffer
}

export function parseHostResponse(data: Buffer): HostResponse | undefined {
  const items = tlvs(data.subarray(1))
  const responseCode = items ? findTlv(items, '8A')?.value : undefined
  if (data.length < 1 || !responseCode || responseCode.length !== 2) return undefined
  return { online: data[0] === 0x01, responseCode }
}

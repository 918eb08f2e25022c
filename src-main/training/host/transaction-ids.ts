/**
 * Host-side identifiers of every record (docs/gateway.md §D2: `svcTransInfo` with svcTransID,
 * svcTransTime, retrievalReferenceNum, traceNum; `pspTransInfo` with authorizationCode when
 * approved, pspTransID, pspTransTime).
 *
 * Shapes follow ISO 8583, which card hosts still speak behind their JSON: the trace number is the
 * 6-digit STAN (field 11), the retrieval reference number the 12-character YDDDHH + STAN (field 37),
 * the authorization code 6 characters (field 38). svcTransID carries a random part so that IDs from
 * an earlier run of the (memory-only) training host never repeat in an agent's journal.
 */
import { randomBytes } from 'node:crypto'
import { formatDateTime } from '../../gateway'

export interface SvcTransInfo {
  svcTransID: string
  svcTransTime: string
  retrievalReferenceNum: string
  traceNum: string
}

export interface PspTransInfo {
  authorizationCode?: string
  pspTransID: string
  pspTransTime: string
}

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'

export class TransactionIds {
  private trace = 0
  private serial = 0
  private readonly runTag = randomBytes(2).toString('hex').toUpperCase()

  svcTransInfo(now: Date): SvcTransInfo {
    // STAN wraps from 999999 back to 000001 (ISO 8583 field 11 never uses 000000).
    this.trace = (this.trace % 999_999) + 1
    this.serial += 1
    const stan = String(this.trace).padStart(6, '0')
    const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14)
    return {
      svcTransID: `${stamp}${this.runTag}${String(this.serial).padStart(6, '0')}`,
      svcTransTime: formatDateTime(now, 0),
      retrievalReferenceNum: `${julianPrefix(now)}${stan}`,
      traceNum: stan,
    }
  }

  pspTransInfo(now: Date, approved: boolean): PspTransInfo {
    const info: PspTransInfo = { pspTransID: randomBytes(8).toString('hex').toUpperCase(), pspTransTime: formatDateTime(now, 0) }
    return approved ? { authorizationCode: authorizationCode(), ...info } : info
  }
}

/** Y DDD HH: last digit of the year, day of the year, hour (UTC). */
function julianPrefix(now: Date): string {
  const startOfYear = Date.UTC(now.getUTCFullYear(), 0, 1)
  const day = Math.floor((now.getTime() - startOfYear) / 86_400_000) + 1
  return `${now.getUTCFullYear() % 10}${String(day).padStart(3, '0')}${String(now.getUTCHours()).padStart(2, '0')}`
}

function authorizationCode(): string {
  return Array.from(randomBytes(6), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('')
}

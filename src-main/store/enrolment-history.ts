/**
 * The enrolment certificates a terminal put into the store's `pos_enrol` bucket, newest first: the
 * rescue accepts a copy sealed by any key in that history whose certificate the recovery key checks,
 * so copies sealed before a re-enrolment still open. Read here with the key-value client; this one
 * function is all the rescue knows of where the history lives.
 */
import { Kvm } from '@nats-io/kv'
import type { StoreConnection } from './store-connection'
import { isNotFound, withTimeout } from './store-connection'
import { terminalKey } from './store-names'

/** Enrolment certificates, one key per terminal, the last ten kept. */
export const ENROL_BUCKET = 'pos_enrol'

export async function readEnrolmentHistory(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  ms: number,
): Promise<Uint8Array[]> {
  const kv = await new Kvm(await connection.jetstream(Math.max(ms, 1_000))).open(ENROL_BUCKET)
  const read = async (): Promise<Uint8Array[]> => {
    const out: Uint8Array[] = []
    try {
      const entries = await kv.history({ key: terminalKey(storeId, terminalId) })
      for await (const entry of entries) if (entry.operation === 'PUT' && entry.length > 0) out.push(new Uint8Array(entry.value))
    } catch (error) {
      // No bucket yet: no terminal of this store ever enrolled.
      if (!isNotFound(error)) throw error
    }
    return out.reverse()
  }
  return withTimeout(read(), ms, 'the store server did not answer')
}

/** Puts this terminal's certificate into `pos_enrol` (its own key; the bucket made with a history of ten when absent). */
export async function putEnrolment(
  connection: StoreConnection,
  storeId: string,
  terminalId: string,
  json: string,
  ms: number,
): Promise<void> {
  const put = async () => {
    const kv = await new Kvm(await connection.jetstream(Math.max(ms, 1_000))).create(ENROL_BUCKET, { history: 10 })
    await kv.put(terminalKey(storeId, terminalId), json)
  }
  await withTimeout(put(), ms, 'the store server did not answer')
}

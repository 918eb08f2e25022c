/**
 * The enrolment certificates a terminal put into the store's `pos_enrol` bucket, newest first: the
 * rescue accepts a copy sealed by any key in that history whose certificate the recovery key checks,
 * so copies sealed before a re-enrolment still open. Read here with the key-value client; this one
 * function is all the rescue knows of where the history lives.
 */
import { Kvm } from '@nats-io/kv'
import type { StoreConnection } from './store-connection'
import { isNotFound, withTimeout } from './store-connection'
import { ENROL_BUCKET, terminalKey } from './store-names'

export { ENROL_BUCKET }

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

/**
 * Where the rescue and `store enrol` meet the store's `pos_enrol` bucket: a terminal's enrolment
 * certificates, newest first (the rescue accepts a copy sealed by any key in that history whose
 * certificate the recovery key checks, so copies sealed before a re-enrolment still open), and the
 * put of this terminal's own. Both are the connection's (store-connection.ts); these two functions
 * are all the rescue and the enrolment know of where the history lives.
 */
import type { StoreConnection } from './store-connection'
import { ENROL_BUCKET } from './store-names'

export { ENROL_BUCKET }

export function readEnrolmentHistory(connection: StoreConnection, _storeId: string, terminalId: string, ms: number): Promise<Uint8Array[]> {
  return connection.readEnrolmentHistory(terminalId, ms)
}

/** Puts this terminal's certificate into `pos_enrol` (its own key; the bucket made when absent). */
export async function putEnrolment(
  connection: StoreConnection,
  _storeId: string,
  terminalId: string,
  json: string,
  ms: number,
): Promise<void> {
  await connection.putEnrolment(terminalId, json, ms)
}

/**
 * Where a store's copies, fences and heartbeats live on its NATS server (pure). One stream per lane
 * (its subjects name its store, so that store servers linked to a chain's hub by leaf nodes never
 * ingest each other's), and one set of buckets per store. Tokens are escaped: a NATS subject token may not hold `.`, `*`, `>`
 * or white space, and a key-value key only `-/_=.` besides letters and digits
 * (https://docs.nats.io/nats-concepts/subjects, "Characters allowed and recommended for subject names").
 */
import type { QueueOperation } from '../../src-shared/sale'

/** `=HH` for every character outside letters, digits, `-` and `_`: reversible, valid in subjects and keys. */
export function subjectToken(text: string): string {
  if (text.length === 0) throw new Error('an empty name cannot be a subject token')
  return Array.from(Buffer.from(text, 'utf8'))
    .map((byte) => {
      const ch = String.fromCharCode(byte)
      return /[A-Za-z0-9_-]/.test(ch) ? ch : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`
    })
    .join('')
}

export function fromSubjectToken(token: string): string {
  const bytes: number[] = []
  for (let i = 0; i < token.length; i++) {
    if (token[i] === '=') {
      bytes.push(parseInt(token.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(token.charCodeAt(i))
  }
  return Buffer.from(bytes).toString('utf8')
}

/**
 * A name part that holds no `_`: the subject token with `_` escaped too (`=5F`). Joined with `_`,
 * parts made this way name one store and terminal only (`S_1` + `T` and `S` + `1_T` differ).
 */
function laneToken(text: string): string {
  return subjectToken(text).replace(/_/g, '=5F')
}

/** One lane's name as the store server's names use it: `<store>_<terminal>`, neither part holding `_`. */
export function laneName(storeId: string, terminalId: string): string {
  return `${laneToken(storeId)}_${laneToken(terminalId)}`
}

/**
 * The stream of one lane: every queued item of that terminal, one message per item. One stream per
 * lane, so that the store server can give each lane's credentials rights on its own stream only
 * (docs/store.md "What a lane may do").
 */
export function laneStreamName(storeId: string, terminalId: string): string {
  return `POS_QUEUE_${laneName(storeId, terminalId)}`
}

/** The prefix of a lane's reply subjects: the server lets a lane subscribe to these alone. */
export function laneInboxPrefix(storeId: string, terminalId: string): string {
  return `_INBOX_${laneName(storeId, terminalId)}`
}

/**
 * The stream every lane of a store shared before each lane had its own. No lane writes it any more;
 * the rescue reads a terminal's copies left there, and an admin removes it once every lane upgraded.
 */
export function legacyStreamName(storeId: string): string {
  return `POS_QUEUE_${subjectToken(storeId).replace(/=/g, '_')}`
}

/** Every copy of one terminal. */
export function terminalCopies(storeId: string, terminalId: string): string {
  return `pos.queue.${subjectToken(storeId)}.${subjectToken(terminalId)}.>`
}

/** One item's subject: store / terminal / operation / message id (a sale's payment and reversal share the id). */
export function copySubject(storeId: string, terminalId: string, operation: QueueOperation, messageId: string): string {
  return `pos.queue.${subjectToken(storeId)}.${subjectToken(terminalId)}.${operation}.${subjectToken(messageId)}`
}

/** The item a copy's subject names. */
export function itemOfSubject(subject: string): { operation: QueueOperation; messageId: string } {
  const parts = subject.split('.')
  if (parts.length !== 6 || parts[0] !== 'pos' || parts[1] !== 'queue') throw new Error(`not a queue copy subject: ${subject}`)
  return { operation: parts[4] as QueueOperation, messageId: fromSubjectToken(parts[5]!) }
}

/** `Nats-Msg-Id`: the stream drops a second publish of the same item within its duplicate window. */
export function copyMessageId(terminalId: string, operation: QueueOperation, messageId: string): string {
  return `${terminalId}:${operation}:${messageId}`
}

/** The key of a terminal in the fence and fleet buckets. */
export function terminalKey(storeId: string, terminalId: string): string {
  return `${subjectToken(storeId)}.${subjectToken(terminalId)}`
}

export function storeOfKey(key: string): { storeId: string; terminalId: string } {
  const [store, terminal] = key.split('.')
  return { storeId: fromSubjectToken(store ?? ''), terminalId: fromSubjectToken(terminal ?? '') }
}

/** A terminal's events (outcomes, alarms, audit records; never card data). */
export function eventSubject(storeId: string, terminalId: string, kind: string): string {
  return `pos.events.${subjectToken(storeId)}.${subjectToken(terminalId)}.${kind}`
}

/** Fences: a record per rescued terminal, put by the store's admin, watched by the terminal. */
export const FENCE_BUCKET = 'pos_fence'
/** Heartbeats: the last word of every lane. */
export const FLEET_BUCKET = 'pos_fleet'
/** Enrolment certificates, one key per terminal, the last ten kept. */
export const ENROL_BUCKET = 'pos_enrol'

export type BucketName = typeof FENCE_BUCKET | typeof FLEET_BUCKET | typeof ENROL_BUCKET

/** The stream that holds a key-value bucket (JetStream's layout: `KV_<bucket>`). */
export function bucketStream(bucket: BucketName): string {
  return `KV_${bucket}`
}

/** The subject of one key of a bucket: what a put publishes to, and what a read names. */
export function bucketSubject(bucket: BucketName, key: string): string {
  return `$KV.${bucket}.${key}`
}

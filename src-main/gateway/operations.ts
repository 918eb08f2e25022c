/**
 * The gateway operations the terminal uses (docs/gateway.md §1): the four offline
 * card-present calls on {offline_base_url}, capture on {base_url} for restaurant close, and
 * merchandiseCredit on {base_url} for returns (the offline family has no refund; host-contract §3).
 * Every one is a POST in the acquirer family `/g2/v0/payment/acq/{aid}/`.
 */
export const OPERATION_KINDS = ['payment', 'cancel', 'reversal', 'tips', 'capture', 'merchandiseCredit'] as const
export type OperationKind = (typeof OPERATION_KINDS)[number]

interface OperationInfo {
  /** Operation name as it appears in the path. */
  readonly name: string
  /** Which configured host serves it. */
  readonly host: 'offline' | 'base'
  /** Whether the path ends in `/{merchantTransID}` of the original transaction. */
  readonly takesOriginalId: boolean
  /** The record in the response that carries `status` (docs/gateway.md §D2). */
  readonly record: 'payment' | 'cancel' | 'reversal' | 'tips' | 'capture' | 'merchandiseCredit'
}

/** The gateway's calls by kind (the local API's operations are the contract's `OPERATIONS`, src-shared/contract). */
export const GATEWAY_OPERATIONS: Readonly<Record<OperationKind, OperationInfo>> = {
  payment: { name: 'svc.offline.payment', host: 'offline', takesOriginalId: false, record: 'payment' },
  cancel: { name: 'svc.offline.cancel', host: 'offline', takesOriginalId: true, record: 'cancel' },
  reversal: { name: 'svc.offline.reversal', host: 'offline', takesOriginalId: true, record: 'reversal' },
  tips: { name: 'svc.offline.tips', host: 'offline', takesOriginalId: true, record: 'tips' },
  capture: { name: 'svc.e-commerce.capture', host: 'base', takesOriginalId: true, record: 'capture' },
  // Its own merchantTransInfo, no original in the path: the host does not link a credit to a payment.
  merchandiseCredit: { name: 'svc.e-commerce.merchandiseCredit', host: 'base', takesOriginalId: false, record: 'merchandiseCredit' },
}

export function isOperationKind(value: string): value is OperationKind {
  return (OPERATION_KINDS as readonly string[]).includes(value)
}

export function acquirerPrefix(aid: string): string {
  return `/g2/v0/payment/acq/${encodeURIComponent(aid)}`
}

/** Path (no host) of an operation; `originalId` is the original's merchantTransID where the path takes one. */
export function operationPath(kind: OperationKind, aid: string, originalId?: string): string {
  const op = GATEWAY_OPERATIONS[kind]
  const base = `${acquirerPrefix(aid)}/${op.name}`
  if (!op.takesOriginalId) return base
  if (originalId === undefined || originalId === '') throw new Error(`${op.name} needs the original merchantTransID in its path`)
  return `${base}/${encodeURIComponent(originalId)}`
}

/** Reads a path back into (aid, operation, original id); undefined when it is not one of ours. */
export function parseOperationPath(path: string): { aid: string; kind: OperationKind; originalId?: string } | undefined {
  const match = /^\/g2\/v0\/payment\/acq\/([^/?]+)\/([^/?]+)(?:\/([^/?]+))?\/?(?:\?.*)?$/.exec(path)
  if (!match) return undefined
  const [, aid, name, id] = match
  const kind = OPERATION_KINDS.find((k) => GATEWAY_OPERATIONS[k].name === name)
  if (kind === undefined || aid === undefined) return undefined
  if (GATEWAY_OPERATIONS[kind].takesOriginalId !== (id !== undefined)) return undefined
  return { aid: decodeURIComponent(aid), kind, ...(id !== undefined ? { originalId: decodeURIComponent(id) } : {}) }
}

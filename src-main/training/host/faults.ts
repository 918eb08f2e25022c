/**
 * Fault injection: the failures a real host and network produce, on demand, per operation or for
 * all ('*'). Each maps to a case the agent must survive (docs/gateway.md §D1):
 *
 * - `delay`: wait N ms, then process normally (slow host; tests the agent's timeouts).
 * - `drop-before-processing`: read the request, then destroy the socket; nothing recorded.
 * - `process-then-drop`: record the effect, then destroy the socket without answering. The dangerous
 *   case: the host approved, the agent cannot know (outcome unknown, reversal needed).
 * - `http-503`: the host's own 503, signed like any answer, without processing; nothing recorded.
 * - `proxy-503`: an unsigned 503 without processing, as from a proxy or load balancer in front of the
 *   host. The agent cannot tell it from the next one, so it must reverse (docs/gateway.md §D1).
 * - `proxy-503-after-processing`: the host records the effect, then a proxy answers an unsigned 503.
 *   The dangerous case behind "only a signed 503 proves nothing was recorded".
 * - `bad-signature`: process and record, answer with an Authorization that does not verify
 *   (must be treated like no response).
 * - `garbage-body`: process and record, answer 200 with a body that is not JSON. The body IS
 *   correctly signed, so that the agent's JSON handling is tested and not only its signature check.
 * - `answer-other-id`: process and record, answer with the record naming another merchantTransID,
 *   correctly signed: an answer about another request (the agent must not take it as this one's).
 * - `answer-other-amount`: the same, the record's transAmount one minor unit higher and, for
 *   `answer-other-currency`, in another currency.
 * - `answer-bare-record`: process and record, answer with the operation's record reduced to its
 *   `status` and `svcTransInfo`, naming no id, and no `payment`, correctly signed: the other form a
 *   host may answer a reversal in (host contract §1), which answers it; for an operation with a
 *   merchantTransInfo of its own, a record that does not name it (not an answer).
 *
 * A specific operation's fault wins over '*'. `times` limits how many requests get it (every
 * request of the operation counts, valid or not); without it the fault stays until cleared. Setting
 * a fault for a target replaces the previous one.
 */
import { z } from 'zod'
import { OPERATION_KINDS, GATEWAY_OPERATIONS, isOperationKind, type OperationKind } from '../../gateway'

export const FAULT_KINDS = [
  'delay',
  'drop-before-processing',
  'process-then-drop',
  'http-503',
  'proxy-503',
  'proxy-503-after-processing',
  'bad-signature',
  'garbage-body',
  'answer-other-id',
  'answer-other-amount',
  'answer-other-currency',
  'answer-bare-record',
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export type Fault = { kind: 'delay'; ms: number } | { kind: Exclude<FaultKind, 'delay'> }
export type FaultTarget = OperationKind | '*'

export interface FaultRule {
  operation: FaultTarget
  fault: Fault
  /** Requests still to be affected; absent = until cleared. */
  times?: number
}

/** Longest delay accepted: long enough to outlast any client timeout (docs/gateway.md §2: 45 s). */
const MAX_DELAY_MS = 600_000

export class FaultBook {
  private readonly rules = new Map<FaultTarget, FaultRule>()

  set(operation: FaultTarget, fault: Fault | string, times?: number): FaultRule {
    const rule: FaultRule = { operation: parseTarget(operation), fault: typeof fault === 'string' ? parseFault(fault) : checkFault(fault) }
    if (times !== undefined) {
      if (!Number.isSafeInteger(times) || times < 1) throw new Error(`times must be a whole number of at least 1, got ${times}`)
      rule.times = times
    }
    this.rules.set(rule.operation, rule)
    return { ...rule }
  }

  clear(operation?: FaultTarget): void {
    if (operation === undefined) this.rules.clear()
    else this.rules.delete(parseTarget(operation))
  }

  /** The fault for this request, if any, counting it against `times`. */
  take(kind: OperationKind): Fault | undefined {
    const rule = this.rules.get(kind) ?? this.rules.get('*')
    if (!rule) return undefined
    if (rule.times !== undefined) {
      rule.times -= 1
      if (rule.times <= 0) this.rules.delete(rule.operation)
    }
    return rule.fault
  }

  list(): FaultRule[] {
    return [...this.rules.values()].map((rule) => structuredClone(rule))
  }
}

/** `payment` or `svc.offline.payment` or `*`. */
export function parseTarget(text: string): FaultTarget {
  if (text === '*' || isOperationKind(text)) return text
  const kind = OPERATION_KINDS.find((k) => GATEWAY_OPERATIONS[k].name === text)
  if (kind) return kind
  throw new Error(`unknown operation "${text}": use *, ${OPERATION_KINDS.join(', ')}`)
}

/** `delay=2000`, `http-503`, ... */
export function parseFault(text: string): Fault {
  const [kind, arg, ...rest] = text.split('=')
  if (kind === 'delay') {
    if (arg === undefined || rest.length > 0 || !/^\d+$/.test(arg)) throw new Error(`delay needs milliseconds: delay=2000, got "${text}"`)
    return checkFault({ kind: 'delay', ms: Number(arg) })
  }
  if (arg !== undefined) throw new Error(`fault "${kind}" takes no value, got "${text}"`)
  const found = FAULT_KINDS.find((k) => k === kind)
  if (found === undefined) throw new Error(`unknown fault "${text}": use ${FAULT_KINDS.join(', ')}`)
  return { kind: found } as Fault
}

function checkFault(fault: Fault): Fault {
  if (fault.kind === 'delay' && (!Number.isSafeInteger(fault.ms) || fault.ms < 0 || fault.ms > MAX_DELAY_MS)) {
    throw new Error(`delay must be 0 to ${MAX_DELAY_MS} ms, got ${fault.ms}`)
  }
  if (!(FAULT_KINDS as readonly string[]).includes(fault.kind)) throw new Error(`unknown fault "${String(fault.kind)}"`)
  return { ...fault }
}

/**
 * The `--fault` flag of the CLI: `<operation|*>:<fault>[=<ms>][x<times>]`, for example
 * `payment:delay=2000`, `*:process-then-drop`, `reversal:http-503x3`.
 */
export function parseFaultSpec(spec: string): FaultRule {
  const colon = spec.indexOf(':')
  if (colon <= 0) throw new Error(`fault spec "${spec}" must look like <operation|*>:<fault>[=ms][xN], e.g. payment:delay=2000`)
  const operation = parseTarget(spec.slice(0, colon))
  const match = /^(.*?)(?:x(\d+))?$/.exec(spec.slice(colon + 1))
  const rule: FaultRule = { operation, fault: parseFault(match?.[1] ?? '') }
  if (match?.[2] !== undefined) {
    const times = Number(match[2])
    if (times < 1) throw new Error(`fault spec "${spec}": the count after x must be at least 1`)
    rule.times = times
  }
  return rule
}

/** Body of `POST /admin/faults`: `{ operation, fault: "delay=2000" | { kind, ms? }, times? }`. */
const adminFaultSchema = z.object({
  operation: z.string(),
  fault: z.union([z.string(), z.object({ kind: z.string(), ms: z.number().optional() })]),
  times: z.number().int().min(1).optional(),
})

export function faultRuleFromJson(value: unknown): { operation: FaultTarget; fault: Fault; times?: number } {
  const parsed = adminFaultSchema.safeParse(value)
  if (!parsed.success) throw new Error(`expected { operation, fault, times? }: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  const { operation, fault, times } = parsed.data
  const parsedFault =
    typeof fault === 'string' ? parseFault(fault) : parseFault(fault.kind === 'delay' ? `delay=${fault.ms ?? ''}` : fault.kind)
  return { operation: parseTarget(operation), fault: parsedFault, ...(times !== undefined ? { times } : {}) }
}

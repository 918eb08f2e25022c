/**
 * `pos-agent send <operation>`: sign one request, send it to the configured host, verify the answer
 * and print it with its outcome class. How an integrator checks a new host connection. Sending is the
 * composition root's (app/gateway-by-hand.ts); the body's reading and the outcome's words are here.
 */
import { sendByHand, type GatewayOutcome, type OperationKind, type Runtime } from '../../app'
import { EXIT } from '../exit-codes'

export const OUTCOME_EXIT: Readonly<Record<GatewayOutcome['kind'], number>> = {
  approved: EXIT.ok,
  declined: EXIT.declined,
  rejected: EXIT.rejected,
  notDelivered: EXIT.notDelivered,
  unknown: EXIT.unknown,
}

export async function sendCommand(
  runtime: Runtime,
  kind: OperationKind,
  bodyBytes: Buffer,
  originalId: string | undefined,
  json: boolean,
): Promise<number> {
  let body: unknown
  try {
    body = JSON.parse(bodyBytes.toString('utf8'))
  } catch (error) {
    throw new Error(`the request body is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  const outcome = await sendByHand(runtime, kind, body, originalId)
  if (json) console.log(JSON.stringify(outcome))
  else console.log(describeOutcome(outcome))
  return OUTCOME_EXIT[outcome.kind]
}

export function describeOutcome(outcome: GatewayOutcome): string {
  const head = `${outcome.operation}: ${outcome.kind} in ${outcome.latencyMs} ms (MsgID ${outcome.msgId})`
  switch (outcome.kind) {
    case 'approved':
      return [
        `${head}`,
        `status ${outcome.status}${outcome.authorizationCode ? `, auth code ${outcome.authorizationCode}` : ''}${outcome.svcTransID ? `, svcTransID ${outcome.svcTransID}` : ''}`,
        JSON.stringify(outcome.response, null, 2),
      ].join('\n')
    case 'declined':
      return [
        `${head}`,
        `reason: ${outcome.reason}${outcome.pspFailureCode ? ` (code ${outcome.pspFailureCode})` : ''}`,
        JSON.stringify(outcome.response, null, 2),
      ].join('\n')
    case 'rejected':
      return `${head}\n${outcome.source === 'agent' ? 'refused before sending' : `host result ${outcome.code}`}: ${outcome.message}`
    case 'notDelivered':
      return `${head}\nthe request never reached the host: ${outcome.reason}`
    case 'unknown':
      return `${head}\nthe request may have reached the host; its result is unknown: ${outcome.reason}`
  }
}

/** The POS software's side of the local API, for tests: an operation with the bearer token, as an integrator calls it. */
import { request } from 'undici'
import type { OperationName, OperationRequest, OperationResults, PosResult } from '../../src-shared/contract'
import type { ServeProcess } from './harness'

export async function posCall<K extends OperationName>(
  serve: ServeProcess,
  operation: K,
  body: OperationRequest<K>,
): Promise<PosResult<OperationResults[K]>> {
  const response = await request(`${serve.uiUrl}/v1/ops/${operation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await response.body.json()) as PosResult<OperationResults[K]>
}

/** The same, for a call that must succeed: its value. */
export async function posValue<K extends OperationName>(
  serve: ServeProcess,
  operation: K,
  body: OperationRequest<K>,
): Promise<OperationResults[K]> {
  const result = await posCall(serve, operation, body)
  if (!result.ok) throw new Error(`${operation} refused: ${JSON.stringify(result.error)}`)
  return result.value
}

/**
 * The audit trail as a POS reads it: a manager's approval asked as a proof for this very request
 * (a manager's number and PIN count as an approval only at the cashier window).
 */
export async function auditTrailAsPos(
  serve: ServeProcess,
  manager: { operatorId: string; pin: string },
): Promise<OperationResults['auditTrail']> {
  const proof = await posValue(serve, 'approve', { operation: 'auditTrail', request: {}, operatorId: manager.operatorId, pin: manager.pin })
  return posValue(serve, 'auditTrail', { approval: proof.approval })
}

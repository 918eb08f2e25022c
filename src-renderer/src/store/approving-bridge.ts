/**
 * A bridge that asks for a manager when the agent says an action needs one: on MANAGER_REQUIRED for
 * an operation a manager approves, it asks (the store shows the approval dialog), sends the same
 * request again with the manager's number and PIN, and asks again after a wrong PIN. The cashier
 * giving up returns the first refusal. The dialog shows what the request does (describeApproval). Every slice calls the agent through it, so no screen has to
 * know which of its actions a manager approves.
 */
import { MANAGER_APPROVED_OPERATIONS, type ApprovalRequestView, type OperationName } from '../../../src-shared/contract'
import type { RendererBridge } from '../bridge'
import { describeError } from './error-words'

type Credential = { operatorId: string; pin: string }
/**
 * Shows the dialog for `operation` (what it approves, as the agent words it, when it could say; the
 * last refusal's words) and resolves with its answer.
 */
export type AskApproval = (
  operation: OperationName,
  problem: string | null,
  described: ApprovalRequestView | null,
) => Promise<Credential | null>

const ASK_AGAIN = new Set(['PIN_WRONG', 'MANAGER_REQUIRED'])

export function approvingBridge(bridge: RendererBridge, ask: AskApproval): RendererBridge {
  const call: RendererBridge['call'] = async (operation, request) => {
    const first = await bridge.call(operation, request)
    if (first.ok || first.error.code !== 'MANAGER_REQUIRED' || !MANAGER_APPROVED_OPERATIONS.includes(operation)) return first
    let problem: string | null = null
    // What the manager approves, in the words the audit trail will keep: asked once, before the PIN.
    const said = await bridge.call('describeApproval', { operation, request: request })
    const described = said.ok ? said.value : null
    for (;;) {
      const approval = await ask(operation, problem, described)
      if (approval === null) return first
      const again = await bridge.call(operation, { ...request, approval })
      if (again.ok || !ASK_AGAIN.has(again.error.code)) return again
      problem = describeError(again.error)
    }
  }
  return {
    call,
    subscribe: (listener) => bridge.subscribe(listener),
    ...(bridge.onReconnect ? { onReconnect: (listener: () => void) => bridge.onReconnect!(listener) } : {}),
    ...(bridge.onConnection ? { onConnection: bridge.onConnection.bind(bridge) } : {}),
  }
}

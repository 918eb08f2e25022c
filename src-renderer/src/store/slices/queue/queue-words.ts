/**
 * What the queue screen says after "Send now", and which alarms the queue still backs. Pure: the
 * queue's status before and after is all it reads.
 */
import type { AlarmView, QueueStatusView } from '../../../../../src-shared/contract'
import type { Notice } from '../../store-types'

/** The alarm the agent raises when a queued message needs a manager (src-main/api: NEEDS_ATTENTION). */
const ATTENTION_ALARM = 'NEEDS_ATTENTION'

function messages(n: number): string {
  return n === 1 ? '1 message' : `${n} messages`
}

/**
 * The answer to "Send now", told as it went: nothing waited; something came back needing a manager
 * (a stored payment the bank declined is never good news); the bank was not reached; how many went.
 */
export function forwardingNotice(before: QueueStatusView | null, after: QueueStatusView): Notice {
  const waited = before?.count ?? after.count
  const newAttention = after.attentionCount - (before?.attentionCount ?? 0)
  if (newAttention > 0)
    return {
      tone: 'error',
      text: `The bank refused ${messages(newAttention)}: a manager must look at ${newAttention === 1 ? 'it' : 'them'} below. ${after.count} left in the queue.`,
    }
  if (waited === 0) return { tone: 'info', text: 'Nothing was waiting to be sent.' }
  if (after.hostReachable === false)
    return { tone: 'warn', text: `The bank could not be reached. ${after.count} still waiting; the terminal keeps trying.` }
  const sent = Math.max(0, waited - after.count)
  if (sent === 0) return { tone: 'warn', text: `Nothing could be sent yet. ${after.count} still waiting.` }
  return { tone: 'ok', text: `${messages(sent)} sent to the bank. ${after.count} left in the queue.` }
}

/** Once no queued message needs a manager, the alarm that said one did is over. */
export function alarmsWithQueue(alarms: AlarmView[], queue: QueueStatusView): AlarmView[] {
  if (queue.attentionCount > 0 || !alarms.some((alarm) => alarm.code === ATTENTION_ALARM)) return alarms
  return alarms.filter((alarm) => alarm.code !== ATTENTION_ALARM)
}

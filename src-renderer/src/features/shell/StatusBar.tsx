/**
 * The status line: who this terminal is, an alarm, the reader, the bank, the queue, who is signed in.
 * Each item is drawn the same in the line and, when it did not fit there, in the Menu (`inMenu`), where
 * its test ids carry a `menu-` prefix so the two copies are never confused.
 */
import type { ReactNode } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { Badge } from '../../components/Badge'
import { AGENT_NOT_ANSWERING, hostReach, usePos } from '../../store'

export interface StatusItem {
  key: string
  render(inMenu: boolean): ReactNode
}

type Tone = 'ok' | 'warn' | 'info' | 'error'
/**
 * Bad news first: on a narrow line only the first items stay in sight, so a bank that is offline or a
 * queue that needs a manager is never the one pushed into the Menu by a reader that is fine.
 */
const TONE_RANK: Record<Tone, number> = { error: 0, warn: 1, info: 2, ok: 3 }

function readerBadge(link: string): { tone: Tone; words: string } {
  if (link === 'connected') return { tone: 'ok', words: 'Reader connected' }
  if (link === 'reconnecting') return { tone: 'warn', words: 'Reader reconnecting' }
  if (link === 'unknown') return { tone: 'info', words: 'Reader unknown' }
  return { tone: 'error', words: 'Reader not connected' }
}

/**
 * The items of the status line, most important first (an alarm, then the badges, worst news first,
 * then who is signed in): the first to leave a full line are the last.
 */
export function useStatusItems(openAlarms: () => void): StatusItem[] {
  const { device, queue, operator, alarmCount, answering } = usePos(
    useShallow((s) => ({
      device: s.device,
      queue: s.queue,
      operator: s.counter?.operator,
      alarmCount: s.alarms.length,
      answering: s.agentAnswering,
    })),
  )
  const signOut = usePos((s) => s.signOut)
  const reach = hostReach({ queue })
  const items: StatusItem[] = []
  const id = (inMenu: boolean, testId: string) => (inMenu ? `menu-${testId}` : testId)
  if (alarmCount > 0)
    items.push({
      key: 'alarm',
      render: (inMenu) =>
        inMenu ? null : (
          <button type="button" className="badge tone-error alarm-button" data-testid="alarm-button" onClick={openAlarms}>
            {alarmCount === 1 ? 'Alarm: see Menu' : `${alarmCount} alarms: see Menu`}
          </button>
        ),
    })
  // While the agent does not answer, what it last said about the reader, the bank and the queue is
  // nobody's word: their badges give way to one red badge saying so (nothing can be charged), until
  // the agent answers again.
  if (!answering)
    items.push({
      key: 'agent',
      render: (inMenu) => (
        <Badge tone="error" testId={id(inMenu, 'agent-not-answering')}>
          {AGENT_NOT_ANSWERING}
        </Badge>
      ),
    })
  const badges: Array<StatusItem & { tone: Tone }> = []
  const reader = readerBadge(device.link)
  if (answering) badges.push({ key: 'reader', tone: reader.tone, render: () => <Badge tone={reader.tone}>{reader.words}</Badge> })
  // Before the first sale or queued message nothing has been sent to the bank: said so, not left out.
  const bank =
    reach === 'reachable'
      ? { tone: 'ok' as const, words: 'Bank online' }
      : reach === 'unreachable'
        ? { tone: 'error' as const, words: 'Bank offline' }
        : { tone: 'info' as const, words: 'Bank not tried yet' }
  if (answering) badges.push({ key: 'bank', tone: bank.tone, render: () => <Badge tone={bank.tone}>{bank.words}</Badge> })
  if (queue && answering) {
    const tone: Tone = queue.attentionCount > 0 ? 'error' : queue.count > 0 ? 'warn' : 'ok'
    badges.push({
      key: 'queue',
      tone,
      render: () => (
        <Badge tone={tone}>{`Queue ${queue.count}${queue.attentionCount > 0 ? `, ${queue.attentionCount} need a manager` : ''}`}</Badge>
      ),
    })
  }
  // With a store server, how safe its copies of offline approvals are, always in sight when it is not
  // on disk (a power cut there can lose them), as the agent words it (docs/store.md).
  if (queue?.storeCopy !== undefined && answering) {
    const words = queue.storeCopy
    const tone: Tone = queue.storeCopySynced === true ? 'ok' : 'warn'
    badges.push({
      key: 'store-copy',
      tone,
      render: (inMenu) => (
        <Badge tone={tone} testId={id(inMenu, 'store-copy')}>
          {words}
        </Badge>
      ),
    })
  }
  // A stable sort: badges of the same tone keep their order (reader, bank, queue, store copies).
  items.push(...badges.sort((a, b) => TONE_RANK[a.tone] - TONE_RANK[b.tone]))
  if (operator)
    items.push({
      key: 'operator',
      render: (inMenu) => (
        <span className="operator" data-testid={id(inMenu, 'signed-in-operator')}>
          <span className="operator-name">
            {operator.name} ({operator.role === 'manager' ? 'manager' : 'cashier'})
          </span>
          <button type="button" className="button" data-testid={id(inMenu, 'sign-out-button')} onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      ),
    })
  return items
}

export function StoreTitle() {
  const appInfo = usePos((s) => s.appInfo)
  return (
    <h1 className="app-title" title={appInfo ? `${appInfo.storeName} · terminal ${appInfo.terminalId}` : undefined}>
      {appInfo?.storeName ?? 'pos-agent'}
      {/* Restaurant mode changes what Approved means (taken at close, with the tip): it is said where the terminal is named. */}
      {appInfo?.restaurantMode ? (
        <span className="app-mode" data-testid="restaurant-mode">
          {' '}
          · Restaurant
        </span>
      ) : null}
      {appInfo ? <span className="terminal-id"> · terminal {appInfo.terminalId}</span> : null}
    </h1>
  )
}

/** One line always in view: who this terminal is, the reader, the queue, the bank. */
import { useShallow } from 'zustand/react/shallow'
import { Badge } from '../../components/Badge'
import { hostReach, usePos } from '../../store'

export function StatusBar() {
  const { appInfo, device, queue, operator } = usePos(
    useShallow((s) => ({ appInfo: s.appInfo, device: s.device, queue: s.queue, operator: s.counter?.operator })),
  )
  const signOut = usePos((s) => s.signOut)
  const reach = hostReach({ queue })
  return (
    <div className="status-bar">
      <h1 className="app-title">
        {appInfo?.storeName ?? 'pos-agent'}
        {appInfo ? <span className="terminal-id"> · terminal {appInfo.terminalId}</span> : null}
      </h1>
      <div className="status-badges" data-testid="status-bar">
        <Badge
          tone={device.link === 'connected' ? 'ok' : device.link === 'reconnecting' ? 'warn' : device.link === 'unknown' ? 'info' : 'error'}
        >
          {device.link === 'connected'
            ? 'Reader connected'
            : device.link === 'reconnecting'
              ? 'Reader reconnecting'
              : device.link === 'unknown'
                ? 'Reader unknown'
                : 'Reader not connected'}
        </Badge>
        {queue && (
          <Badge
            tone={queue.attentionCount > 0 ? 'error' : queue.count > 0 ? 'warn' : 'ok'}
          >{`Queue ${queue.count}${queue.attentionCount > 0 ? `, ${queue.attentionCount} need a manager` : ''}`}</Badge>
        )}
        {operator && (
          <span className="operator" data-testid="signed-in-operator">
            {operator.name} ({operator.role === 'manager' ? 'manager' : 'cashier'})
            <button type="button" className="button" data-testid="sign-out-button" onClick={() => void signOut()}>
              Sign out
            </button>
          </span>
        )}
        {reach !== 'unknown' && (
          <Badge tone={reach === 'reachable' ? 'ok' : 'error'}>{reach === 'reachable' ? 'Bank online' : 'Bank offline'}</Badge>
        )}
      </div>
    </div>
  )
}

/** The card reader: connected or not, on which port, reconnecting, and its last message. */
import { useEffect } from 'react'
import { Badge } from '../../components/Badge'
import { cardPromptWords, usePos, usePosStore, type DeviceLink, type Tone } from '../../store'

const LINK_WORDS: Readonly<Record<DeviceLink, { text: string; tone: Tone }>> = {
  connected: { text: 'Connected', tone: 'ok' },
  disconnected: { text: 'Not connected', tone: 'error' },
  reconnecting: { text: 'Reconnecting…', tone: 'warn' },
  unknown: { text: 'Not known yet', tone: 'info' },
}

export function DeviceScreen() {
  const store = usePosStore()
  const device = usePos((s) => s.device)
  const prompt = usePos((s) => s.prompt)
  const link = LINK_WORDS[device.link]

  useEffect(() => {
    void store.getState().refreshDevice()
  }, [store])

  return (
    <section className="screen" aria-labelledby="device-title">
      <div className="screen-head">
        <h2 id="device-title">Card reader</h2>
        <button type="button" className="button button-large" onClick={() => void store.getState().refreshDevice()}>
          Check the reader
        </button>
      </div>
      <dl className="facts facts-wide" data-testid="device-summary">
        <div>
          <dt>Reader</dt>
          <dd data-testid="device-link">
            <Badge tone={link.tone}>{link.text}</Badge>
          </dd>
        </div>
        <div>
          <dt>Port</dt>
          <dd data-testid="device-port">{device.port ?? 'Unknown'}</dd>
        </div>
        <div>
          <dt>In use</dt>
          <dd>{device.busy ? 'Yes, a card dialogue is running' : 'No'}</dd>
        </div>
        <div>
          <dt>Last message</dt>
          <dd>{prompt ? cardPromptWords(prompt).text : 'None'}</dd>
        </div>
      </dl>
      {device.link === 'reconnecting' && (
        <p className="notice notice-error" role="status">
          The reader was lost and the agent is reconnecting. Check the cable.
        </p>
      )}
      {device.link === 'disconnected' && (
        <p className="notice notice-error" role="status">
          No card reader. Check that it is plugged in and powered.
        </p>
      )}
    </section>
  )
}

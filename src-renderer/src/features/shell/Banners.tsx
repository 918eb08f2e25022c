/**
 * Banners that must not be missed: training mode, and the agent's alarms. An alarm is shown in the
 * catalogue's words for its code; its message is the detail for the log and the integrator.
 */
import { wordsOf } from '../../../../src-shared/errors'
import { isTraining, usePos } from '../../store'

export function TrainingBanner() {
  const training = usePos(isTraining)
  if (!training) return null
  return (
    <div className="training-banner" role="note" aria-label="Training mode" data-testid="training-banner">
      TRAINING MODE · practice only · no real card is charged
    </div>
  )
}

export function AlarmsBanner() {
  const alarms = usePos((s) => s.alarms)
  if (alarms.length === 0) return null
  return (
    <div className="alarms-banner" role="alert" data-testid="alarms-banner">
      <ul>
        {alarms.map((alarm) => (
          <li key={alarm.code}>
            <strong>Alarm:</strong> {wordsOf(alarm.code)}
          </li>
        ))}
      </ul>
    </div>
  )
}

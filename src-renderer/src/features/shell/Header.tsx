/**
 * The header: the training banner, the alarms and one status line ending in the screen buttons (on a
 * small screen, the Menu). On a small screen the header is always the banner and one line, whatever it
 * holds (a long name, alarms, every badge): what does not fit goes into the Menu, so the screen below
 * keeps the same room and nothing is drawn over it (docs/ui.md "Screen sizes").
 */
import { useRef, useState } from 'react'
import { wordsOf } from '../../../../src-shared/errors'
import { usePos } from '../../store'
import { AlarmsBanner, TrainingBanner } from './Banners'
import { NavBar } from './NavBar'
import { StoreTitle, useStatusItems } from './StatusBar'
import { useStatusOverflow } from './use-status-overflow'

/** The alarms in full, at the top of the Menu (the line has room only to say there is one). */
function MenuAlarms() {
  const alarms = usePos((s) => s.alarms)
  if (alarms.length === 0) return null
  return (
    <ul className="menu-alarms" data-testid="menu-alarms">
      {alarms.map((alarm) => (
        <li key={alarm.code}>
          <strong>Alarm:</strong> {wordsOf(alarm.code)}
        </li>
      ))}
    </ul>
  )
}

/** `screens`: whether the Menu lists the screens (not before someone has signed in). */
export function Header({ screens = true }: { screens?: boolean }) {
  const [open, setOpen] = useState(false)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const openAlarms = () => {
    setOpen(true)
    toggleRef.current?.focus()
  }
  const items = useStatusItems(openAlarms)
  const { lineRef, overflowed } = useStatusOverflow()
  const moved = items.filter((item) => overflowed.includes(item.key))
  const extra = (
    <>
      <MenuAlarms />
      {moved.length > 0 && (
        // A button pressed here (Sign out) has done what the Menu was opened for.
        <div
          className="menu-status"
          data-testid="menu-status"
          onClick={(event) => {
            if (event.target instanceof Element && event.target.closest('button')) setOpen(false)
          }}
        >
          {moved.map((item) => (
            <div key={item.key}>{item.render(true)}</div>
          ))}
        </div>
      )}
    </>
  )
  return (
    <header className="app-header">
      <TrainingBanner />
      <AlarmsBanner />
      <div className="top-bar">
        <div className="status-bar">
          <StoreTitle />
          <div className="status-line" ref={lineRef} data-testid="status-bar">
            {items.map((item) => {
              const hidden = overflowed.includes(item.key)
              return (
                <div
                  key={item.key}
                  className="status-item"
                  data-status-item={item.key}
                  data-overflowed={hidden ? 'true' : undefined}
                  inert={hidden}
                >
                  {item.render(false)}
                </div>
              )
            })}
          </div>
        </div>
        <NavBar open={open} setOpen={setOpen} toggleRef={toggleRef} extra={extra} screens={screens} />
      </div>
    </header>
  )
}

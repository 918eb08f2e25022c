/**
 * The card prompt's time limit, told through more than one sense (EN 301 549 §5.1.3 / WCAG 2.2 SC
 * 2.2.1): on screen, and by a short two-note chime through the platform's audio (Web Audio API), which
 * sounds whether or not spoken help is on; with spoken help on, the warning is also spoken (spokenLine).
 */
import { useEffect, useRef } from 'react'

export interface Chime {
  play(): void
}

/** Two short notes, loud enough to notice at a counter, or none (a browser without Web Audio). */
export function platformChime(): Chime | null {
  const Context = typeof window !== 'undefined' ? window.AudioContext : undefined
  if (!Context) return null
  let context: AudioContext | undefined
  return {
    play() {
      context ??= new Context()
      // A display nobody has touched yet may hold its audio suspended; resuming is all it can do.
      void context.resume().catch(() => undefined)
      const start = context.currentTime
      for (const [offset, frequency] of [
        [0, 880],
        [0.35, 660],
      ] as const) {
        const tone = context.createOscillator()
        const gain = context.createGain()
        tone.frequency.value = frequency
        gain.gain.value = 0.25
        tone.connect(gain)
        gain.connect(context.destination)
        tone.start(start + offset)
        tone.stop(start + offset + 0.25)
      }
    },
  }
}

/** Sounds the chime once each time the warning starts (not every second of it). */
export function useTimeWarningCue(warning: boolean, chime: Chime | null): void {
  const was = useRef(false)
  useEffect(() => {
    if (warning && !was.current) chime?.play()
    was.current = warning
  }, [warning, chime])
}

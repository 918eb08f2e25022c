/**
 * The customer display, spoken: when the customer has switched speech on, each new thing the display
 * says (the amount, present the card, enter the PIN on the pad, the outcome) is read out through the
 * platform's speech (Web Speech API `speechSynthesis`; in Electron, Chromium's). Only the display's
 * own words are spoken, and they never hold PIN digits: the PIN is typed on the card reader, which
 * never tells the agent what was pressed.
 */
import { useEffect, useRef } from 'react'

export interface Speech {
  speak(text: string): void
  stop(): void
}

/** The platform's speech, or none (a browser without the Web Speech API). */
export function platformSpeech(): Speech | null {
  const synth = typeof window !== 'undefined' ? window.speechSynthesis : undefined
  if (!synth || typeof SpeechSynthesisUtterance === 'undefined') return null
  return {
    speak(text) {
      const utterance = new SpeechSynthesisUtterance(text)
      utterance.lang = document.documentElement.lang || 'en'
      synth.speak(utterance)
    },
    stop: () => synth.cancel(),
  }
}

/** Speaks `text` each time it changes while `on`; switching on speaks what is on screen now. */
export function useSpokenPrompts(text: string, on: boolean, speech: Speech | null): void {
  const last = useRef<string | null>(null)
  useEffect(() => {
    if (!on || !speech) {
      last.current = null
      return
    }
    if (text === last.current) return
    last.current = text
    // A new prompt replaces one still being read: the customer hears what is asked now.
    speech.stop()
    speech.speak(text)
  }, [text, on, speech])
}

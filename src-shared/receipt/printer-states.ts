/** The receipt printer's states, as the agent learns them (ESC/POS real-time status), and their words. */
export const PRINTER_STATES = ['ready', 'paperLow', 'paperOut', 'coverOpen', 'offline', 'notConfigured'] as const
export type PrinterState = (typeof PRINTER_STATES)[number]

export const PRINTER_STATE_WORDS: Readonly<Record<PrinterState, string>> = {
  ready: 'Printer ready',
  paperLow: 'Printer paper low',
  paperOut: 'Printer out of paper',
  coverOpen: 'Printer cover open',
  offline: 'Printer not answering',
  notConfigured: 'No receipt printer',
}

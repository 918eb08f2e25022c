/**
 * What the printer says of itself, through ESC/POS real-time status (DLE EOT n, Epson "ESC/POS
 * Command Reference", DLE EOT): n = 1 printer status (bit 3: offline), n = 2 offline cause (bit 2:
 * cover open; bit 5: stopped for want of paper), n = 4 roll paper sensor (bits 2-3: near its end;
 * bits 5-6: out). Every answer byte has bits 1 and 4 set and bits 0 and 7 clear: a byte without that
 * shape is not a status answer. Pure: queries as bytes, answers as a state.
 */
import type { PrinterState } from '../../src-shared/receipt'

export type { PrinterState }

const DLE = 0x10
const EOT = 0x04
export const STATUS_QUERY = { printer: 1, offlineCause: 2, paper: 4 } as const
export type StatusQuery = keyof typeof STATUS_QUERY

export function statusQuery(query: StatusQuery): Uint8Array {
  return Uint8Array.of(DLE, EOT, STATUS_QUERY[query])
}

/** Whether a byte has the fixed bits every DLE EOT answer has. */
export function isStatusByte(byte: number): boolean {
  return (byte & 0x93) === 0x12
}

/** Reads the answers to the printer, offline-cause and paper queries (each may be absent: not asked). */
export function printerState(answers: { printer: number; offlineCause?: number | undefined; paper?: number | undefined }): PrinterState {
  if (answers.paper !== undefined && (answers.paper & 0x60) !== 0) return 'paperOut'
  if ((answers.printer & 0x08) !== 0) {
    const cause = answers.offlineCause ?? 0
    if ((cause & 0x04) !== 0) return 'coverOpen'
    if ((cause & 0x20) !== 0) return 'paperOut'
    return 'offline'
  }
  if (answers.paper !== undefined && (answers.paper & 0x0c) !== 0) return 'paperLow'
  return 'ready'
}

/** Whether a receipt can be printed in this state (paper low still prints). */
export function canPrint(state: PrinterState): boolean {
  return state === 'ready' || state === 'paperLow'
}

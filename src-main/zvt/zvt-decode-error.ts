/**
 * What can be wrong with bytes a register sent, as data: every ZVT parser is total and returns one of
 * these instead of throwing, so a bad length or a truncated field becomes a negative acknowledgement
 * the register can read (`84 xx 00`, PA00P015 §2.2), never a crash of the agent. The result codes are
 * PA00P015's error table (chapter 10): `9A` "ZVT protocol error (parsing error, mandatory message
 * element missing)", `83` "function not possible".
 */

export const ZVT_PROTOCOL_ERROR = 0x9a
export const ZVT_FUNCTION_NOT_POSSIBLE = 0x83

export type ZvtDecodeError =
  /** Fewer bytes than a length field or a fixed field announced. */
  | { kind: 'truncated'; what: string; need: number; have: number }
  /** A length field that is no length: an LL/LLL digit outside `F0`–`F9`, a BER length form ZVT does not use. */
  | { kind: 'badLength'; what: string; detail: string }
  /** A BMP whose length no table knows, so nothing after it can be read. */
  | { kind: 'unknownBmp'; bmp: number }
  /** A packed-BCD field with a nibble above 9 where digits are required. */
  | { kind: 'badBcd'; what: string }
  /** Bytes left over after a complete message, or a field the command requires missing. */
  | { kind: 'malformed'; what: string; detail: string }

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: ZvtDecodeError }

export const decoded = <T>(value: T): Decoded<T> => ({ ok: true, value })
export const failed = <T = never>(error: ZvtDecodeError): Decoded<T> => ({ ok: false, error })

/** The result code of the negative acknowledgement a decode error is answered with. */
export function resultCodeOf(_error: ZvtDecodeError): number {
  // PA00P015 names one code for every parsing failure; the kind stays in the log.
  return ZVT_PROTOCOL_ERROR
}

/** One line for the log (never the bytes: a field may carry card data). */
export function describeDecodeError(error: ZvtDecodeError): string {
  switch (error.kind) {
    case 'truncated':
      return `${error.what}: ${error.need} bytes announced, ${error.have} present`
    case 'badLength':
      return `${error.what}: ${error.detail}`
    case 'unknownBmp':
      return `BMP ${hex(error.bmp)} has no known length`
    case 'badBcd':
      return `${error.what}: not packed BCD`
    case 'malformed':
      return `${error.what}: ${error.detail}`
  }
}

export const hex = (byte: number): string => byte.toString(16).toUpperCase().padStart(2, '0')

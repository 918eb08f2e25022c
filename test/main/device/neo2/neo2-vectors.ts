/**
 * Worked NEO 2 frames from docs/neo2-protocol.md §11 (and §1, §2.2, §3.2, §5, §7, §8) and docs/card-reader.md
 * §1.2. "printed" = printed in a source and CRC-verified there; "computed" = [C] frames computed for
 * docs/neo2-protocol.md §11, used as regression values.
 */
import type { Neo2FrameKind } from '../../../../src-main/device/neo2/neo2-frame'

/** Header `H` = "ViVOtech2\0" (docs/card-reader.md §1.2). */
const H = '56 69 56 4F 74 65 63 68 32 00'
const ascii = (text: string): string => Buffer.from(text, 'latin1').toString('hex')
/** Frames are written as the notes print them (spaced hex); this joins them. */
const hex = (...parts: string[]): string => parts.join('').replace(/\s+/g, '').toUpperCase()

export interface FrameVector {
  name: string
  kind: Neo2FrameKind
  hex: string
  source: 'printed' | 'computed'
}

export const FRAME_VECTORS: readonly FrameVector[] = [
  { name: 'Ping 18-01 command', kind: 'command', hex: hex(H, '18 01 00 00 B3 CD'), source: 'printed' },
  { name: 'Ping response', kind: 'response', hex: hex(H, '18 00 00 00 FA 83'), source: 'printed' },
  { name: 'Get Configuration 03-02', kind: 'command', hex: hex(H, '03 02 00 00 5B 91'), source: 'printed' },
  {
    name: 'Activate 02-40, IDG example',
    kind: 'command',
    hex: hex(H, '02 40 00 22 1E 9C 01 00 9F 02 06 00 00 00 00 01 00 9F 03 06 00 00 00 00 00 00 DF EF 37 01 07 DF EF 3C 03 01 00 60 18 D1'),
    source: 'printed',
  },
  {
    name: 'Activate 02-40, EUR 12.34 MSR+CTLS',
    kind: 'command',
    hex: hex(H, '02 40 00 20 1E 9F 02 06 00 00 00 00 12 34 9F 03 06 00 00 00 00 00 00 9C 01 00 5F 2A 02 09 78 DF EF 37 01 03 A9 02'),
    source: 'computed',
  },
  { name: 'Set Poll Mode auto', kind: 'command', hex: hex(H, '01 01 00 01 00 F6 24'), source: 'printed' },
  { name: 'Set Poll Mode on demand', kind: 'command', hex: hex(H, '01 01 00 01 01 D7 34'), source: 'computed' },
  { name: 'Poll mode response OK', kind: 'response', hex: hex(H, '01 00 00 00 12 53'), source: 'printed' },
  { name: 'Get Transaction Result 03-00', kind: 'command', hex: hex(H, '03 00 00 00 3B FF'), source: 'printed' },
  { name: '03-00 response, no card', kind: 'response', hex: hex(H, '03 00 00 03 00 00 00 8D D0'), source: 'printed' },
  { name: 'Get Transaction Result 03-40', kind: 'command', hex: hex(H, '03 40 00 00 96 E2'), source: 'computed' },
  { name: 'Cancel 05-01', kind: 'command', hex: hex(H, '05 01 00 00 92 EF'), source: 'computed' },
  { name: 'Cancel 05-01 reset mode', kind: 'command', hex: hex(H, '05 01 00 01 01 D1 BD'), source: 'computed' },
  { name: 'Cancel OK response', kind: 'response', hex: hex(H, '05 00 00 00 D8 A2'), source: 'computed' },
  { name: '02-40 response Timeout', kind: 'response', hex: hex(H, '02 08 00 00 20 2E'), source: 'computed' },
  { name: '02-40 response 23 without data', kind: 'response', hex: hex(H, '02 23 00 00 56 19'), source: 'computed' },
  {
    name: '02-40 response 0A illustrative',
    kind: 'response',
    hex: hex(H, '02 0A 00 09 01 FF EE 1F 04 27 00 00 00 04 84'),
    source: 'computed',
  },
  // The failure record as ID TECH's QA scripts read it: DFEE02 = error 20, SW 9000, RF state 03 (§3.2).
  {
    name: '02-40 response 0A, DFEE02 record, contactless',
    kind: 'response',
    hex: hex(H, '02 0A 00 09 01 DF EE 02 04 20 90 00 03 32 5C'),
    source: 'computed',
  },
  {
    name: '02-40 response 0A, DFEE02 record, contact',
    kind: 'response',
    hex: hex(H, '02 0A 00 09 00 DF EE 02 04 20 90 00 03 D9 7F'),
    source: 'computed',
  },
  {
    name: '02-40 response 0A, DFEE02 inside FFEE1F, contact',
    kind: 'response',
    hex: hex(H, '02 0A 00 0D 00 FF EE 1F 08 DF EE 02 04 20 90 00 03 24 D3'),
    source: 'computed',
  },
  { name: '02-40 response 80 cannot start contact EMV', kind: 'response', hex: hex(H, '02 80 00 00 B2 D5'), source: 'computed' },
  { name: '02-40 response 81 cancelled by card insertion', kind: 'response', hex: hex(H, '02 81 00 00 85 E5'), source: 'computed' },
  { name: '62-00 cancel PIN', kind: 'command', hex: hex(H, '62 00 00 00 5D D0'), source: 'computed' },
  { name: '62 ACK response', kind: 'response', hex: hex(H, '62 00 00 00 D0 5D'), source: 'computed' },
  { name: '62-01 tentative', kind: 'command', hex: hex(H, '62 01 00 0E 01 00 0C 04 09', ascii('ENTER PIN'), 'A5 21'), source: 'computed' },
  { name: '62 second response, keypad cancel', kind: 'response', hex: hex(H, '62 0A 00 01 01 DD C6'), source: 'computed' },
  { name: 'Get Serial 12-01', kind: 'command', hex: hex(H, '12 01 00 00 18 A5'), source: 'printed' },
  {
    name: 'Get Serial response',
    kind: 'response',
    hex: hex(H, '12 00 00 0F', ascii('630Z000001'), '00 00 00 00 00 94 BC'),
    source: 'printed',
  },
  { name: 'Contact ICS 60-16', kind: 'command', hex: hex(H, '60 16 00 01 03 92 ED'), source: 'printed' },
  { name: 'Contact ICS response', kind: 'response', hex: hex(H, '60 00 00 00 3D 35'), source: 'printed' },
  {
    name: '61-08 text colour',
    kind: 'command',
    hex: hex(H, '61 08 00 13', ascii('Screen1\0Text1\0'), '01 00 00 FF FF FC 43'),
    source: 'printed',
  },
  { name: '61-13 query screen', kind: 'command', hex: hex(H, '61 13 00 08', ascii('Screen1\0'), '58 F8'), source: 'computed' },
  { name: '61-13 response', kind: 'response', hex: hex(H, '61 00 00 01 01 5B BF'), source: 'computed' },
  { name: '61-09 remove object', kind: 'command', hex: hex(H, '61 09 00 0E', ascii('Screen1\0Text1\0'), '3B 5C'), source: 'computed' },
  { name: '61-09 response', kind: 'response', hex: hex(H, '61 00 00 00 4B 81'), source: 'computed' },
]

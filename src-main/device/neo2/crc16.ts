/**
 * CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final XOR; check value 0x29B1
 * for "123456789". This is the CRC of NEO 2 Protocol-2 frames (docs/card-reader.md §1.2, IDG p.60 §3.4).
 * Table-driven (one lookup per byte) because the framer runs it over every received frame.
 */

const POLY = 0x1021
export const CRC16_INIT = 0xffff

const TABLE: Uint16Array = (() => {
  const table = new Uint16Array(256)
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ POLY) & 0xffff : (crc << 1) & 0xffff
    table[byte] = crc
  }
  return table
})()

/**
 * CRC over `data[start, end)`. `crc` lets a caller continue a running CRC over several pieces
 * (pass the previous result); it defaults to the algorithm's initial value.
 */
export function crc16(data: Uint8Array, start = 0, end = data.length, crc = CRC16_INIT): number {
  let value = crc & 0xffff
  for (let i = start; i < end; i++) {
    value = ((value << 8) & 0xffff) ^ (TABLE[((value >>> 8) ^ (data[i] as number)) & 0xff] as number)
  }
  return value
}

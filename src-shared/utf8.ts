/**
 * Gateway length limits count UTF-8 bytes, not characters (docs/gateway.md §4: the unit of every
 * field length is the byte). Computed without TextEncoder so shared code needs no DOM or Node typings.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3 // lone high surrogate encodes as U+FFFD
    } else bytes += 3
  }
  return bytes
}

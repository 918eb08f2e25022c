/** Small HTTP helpers of the training host's server. */
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Largest request body accepted. The biggest legitimate offline payment (docs/gateway.md §4 and §D5,
 * fields at their limits, icCardData 2048 hex, encryptedCardInfo 4096) stays far below it.
 */
export const MAX_BODY_BYTES = 256 * 1024

/** The whole body, or undefined when it is larger than `limit` (the rest is not read). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > limit) return undefined
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

export function sendBytes(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  res.writeHead(status, { ...headers, 'Content-Length': String(body.length) })
  res.end(body)
}

/** An unsigned JSON answer (admin endpoints, 404/405/413/503). */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendBytes(res, status, { 'Content-Type': 'application/json; charset=utf-8', ...headers }, Buffer.from(JSON.stringify(value), 'utf8'))
}

/** Ends the connection without an answer: what the client sees when a host dies mid-request. */
export function dropConnection(req: IncomingMessage): void {
  req.socket.destroy()
}

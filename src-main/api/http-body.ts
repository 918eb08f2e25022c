/** Reading a bounded request body and writing a JSON answer: shared by the agent's HTTP doors (local API, nexo). */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The largest request body a door reads: every message of the local API and of nexo is far below it. */
export const MAX_BODY_BYTES = 64 * 1024

/** The body as UTF-8; rejects (and stops reading) past `limit` bytes. */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new BodyTooLargeError(limit))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError'
  constructor(readonly limit: number) {
    super(`the request body is larger than ${limit} bytes`)
  }
}

export function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(value))
}

/** Reading a bounded request body and writing a JSON answer: shared by the agent's HTTP doors (local API, nexo). */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { failed } from '../../src-shared/errors'

/** The largest request body a door reads: every message of the local API and of nexo is far below it. */
export const MAX_BODY_BYTES = 64 * 1024

/**
 * The body as UTF-8; rejects with BodyTooLargeError past `limit` bytes, at once when the
 * Content-Length says so. What comes past the limit is read and dropped, not kept, so that the
 * client gets its 413 answer rather than a connection reset.
 */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0)
    if (declared > limit) {
      request.resume()
      reject(new BodyTooLargeError(limit))
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      if (tooLarge) return
      size += chunk.length
      if (size > limit) {
        tooLarge = true
        chunks.length = 0
        reject(new BodyTooLargeError(limit))
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

/** 413 with the catalogue's words; the connection closes after it, so nothing more of the body is read. */
export function sendBodyTooLarge(response: ServerResponse, limit: number): void {
  response.setHeader('connection', 'close')
  json(response, 413, failed('BODY_TOO_LARGE', `the request body is larger than ${limit} bytes`))
}

export function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(value))
}

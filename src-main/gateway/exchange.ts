/**
 * One HTTP exchange with the host, straight on undici's dispatcher: the request goes out, the
 * response's status, headers and body come back whole. undici's `request()` wraps every answer in a
 * stream object and its handler; a gateway answer is a few hundred bytes read at once, and the queue
 * sends thousands of them in a drain, so the body is gathered here from its chunks instead (about a
 * tenth of the client's time per request, measured against the training host).
 *
 * Errors are undici's own (connect, socket, headers and body timeouts), as `request()` gives them, so
 * the caller classifies them the same way. An answer larger than any gateway answer is cut off with
 * an error: it is nothing the host would send, and it is never read into memory whole.
 */
import type { Dispatcher } from 'undici'

/** Far above any gateway answer (a few kilobytes at most): past it the answer is refused unread. */
export const MAX_ANSWER_BYTES = 1024 * 1024

export interface Exchanged {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export class AnswerTooLargeError extends Error {
  readonly code = 'POS_ANSWER_TOO_LARGE'
  constructor() {
    super(`the host's answer is larger than ${MAX_ANSWER_BYTES} bytes`)
    this.name = 'AnswerTooLargeError'
  }
}

export function exchange(
  dispatcher: Dispatcher,
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  maxBytes = MAX_ANSWER_BYTES,
): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    let status = 0
    let answerHeaders: Exchanged['headers'] = {}
    let chunks: Buffer[] = []
    let size = 0
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {},
      onResponseStart(_controller, statusCode, responseHeaders) {
        // A 1xx comes before the answer: only the last status and headers count.
        status = statusCode
        answerHeaders = responseHeaders
        chunks = []
        size = 0
      },
      onResponseData(controller, chunk) {
        size += chunk.length
        if (size > maxBytes) controller.abort(new AnswerTooLargeError())
        else chunks.push(chunk)
      },
      onResponseEnd() {
        resolve({ status, headers: answerHeaders, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) })
      },
      onResponseError(_controller, error) {
        reject(error)
      },
    }
    dispatcher.dispatch({ origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body }, handler)
  })
}

/**
 * A server-sent events client for tests, parsing the stream as the WHATWG HTML standard's
 * "Server-sent events" section says a browser does: `id`, `event` and `data` fields, blank-line
 * dispatch, comments ignored, the last event id kept across events that carry none.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'

export interface SseEvent {
  /** The last event id as of this event (what a browser would send back as Last-Event-ID). */
  lastEventId: string
  /** Whether this very event carried an `id` field. */
  hasId: boolean
  event: string
  data: string
}

export class SseClient {
  readonly events: SseEvent[] = []
  lastEventId = ''
  private buffer = ''
  private pending: { event: string; data: string[]; hasId: boolean } = { event: '', data: [], hasId: false }
  private waiters: Array<() => void> = []

  private constructor(
    private readonly request: ClientRequest,
    readonly response: IncomingMessage,
  ) {
    response.setEncoding('utf8')
    response.on('data', (chunk: string) => this.feed(chunk))
  }

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const target = new URL(url)
      const request = httpRequest(target, { headers: { host: target.host, ...headers } }, (response) =>
        resolve(new SseClient(request, response)),
      )
      request.on('error', reject)
      request.end()
    })
  }

  /** The PosEvents (unnamed events), parsed. */
  messages(): Array<{ lastEventId: string; hasId: boolean; event: Record<string, unknown> }> {
    return this.events
      .filter((e) => e.event === 'message')
      .map((e) => ({ lastEventId: e.lastEventId, hasId: e.hasId, event: JSON.parse(e.data) as Record<string, unknown> }))
  }

  named(name: string): SseEvent[] {
    return this.events.filter((e) => e.event === name)
  }

  async waitFor(check: (client: SseClient) => boolean, timeoutMs = 8_000): Promise<void> {
    const until = Date.now() + timeoutMs
    while (!check(this)) {
      if (Date.now() > until) throw new Error(`event not received in time; got ${JSON.stringify(this.events.map((e) => e.event))}`)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve)
        setTimeout(resolve, 50)
      })
    }
  }

  close(): void {
    this.request.destroy()
  }

  private feed(chunk: string): void {
    this.buffer += chunk
    let newline: number
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '')
      this.buffer = this.buffer.slice(newline + 1)
      this.line(line)
    }
    for (const wake of this.waiters.splice(0)) wake()
  }

  private line(line: string): void {
    if (line === '') return this.dispatch()
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (field === 'event') this.pending.event = value
    else if (field === 'data') this.pending.data.push(value)
    else if (field === 'id' && !value.includes('\0')) {
      this.lastEventId = value
      this.pending.hasId = true
    }
  }

  private dispatch(): void {
    const { event, data, hasId } = this.pending
    this.pending = { event: '', data: [], hasId: false }
    if (data.length === 0) return
    this.events.push({ lastEventId: this.lastEventId, hasId, event: event || 'message', data: data.join('\n') })
  }
}

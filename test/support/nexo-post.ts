/** A nexo message posted by hand to the endpoint on 127.0.0.1:8443, as a POS without Adyen's library would. */
import { request as httpsRequest, type Agent } from 'node:https'

export interface NexoPost {
  body: string
  headers: Record<string, string>
  /** The endpoint's CA (validated), or a kept connection's agent that carries it. */
  ca?: string
  agent?: Agent
}

/** The HTTP status and the parsed JSON answer (null for an empty body). */
export function postNexo({ body, headers, ca, agent }: NexoPost): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port: 8443,
        path: '/nexo',
        method: 'POST',
        ...(agent ? { agent } : { ca }),
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text === '' ? null : JSON.parse(text) }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

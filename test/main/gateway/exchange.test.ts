/**
 * The host exchange on undici's dispatcher, against a real HTTP server on 127.0.0.1 (the TLS around
 * it is the gateway client's, tested in gateway-client.test.ts): what it hands back, an answer in many
 * chunks, an answer too large to be a gateway's, and an answer cut off halfway.
 */
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnswerTooLargeError, exchange } from '../../../src-main/gateway/exchange'

let server: Server
let base: URL
let answer: (body: string, response: ServerResponse) => void = () => undefined
const agent = new Agent()

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => answer(body, response))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
})
afterAll(async () => {
  await agent.close()
  await new Promise((resolve) => server.close(resolve))
})

describe('one exchange with the host', () => {
  it('sends the body and headers, and gives back the status, the headers by lower-case name and the whole body', async () => {
    answer = (body, response) => {
      response.writeHead(201, { 'X-Echo': body, MsgID: 'm-1' })
      // In pieces, as a slow link delivers it.
      response.write('{"a":')
      setTimeout(() => response.end('"é"}'), 20)
    }
    const got = await exchange(agent, new URL('/v1/pay?x=1', base), { 'content-type': 'application/json' }, Buffer.from('héllo'))
    expect(got.status).toBe(201)
    expect(got.headers['x-echo']).toBe('héllo')
    expect(got.headers.msgid).toBe('m-1')
    expect(JSON.parse(got.body.toString('utf8'))).toEqual({ a: 'é' })
  })

  it('refuses an answer larger than a gateway would send, without reading it whole', async () => {
    answer = (_body, response) => {
      response.writeHead(200)
      const chunk = Buffer.alloc(64 * 1024, 0x61)
      let sent = 0
      const more = () => {
        while (sent < 4 * 1024 * 1024 && !response.destroyed) {
          sent += chunk.length
          if (!response.write(chunk)) return void response.once('drain', more)
        }
        response.end()
      }
      more()
    }
    const refused = exchange(agent, base, {}, Buffer.from('{}'), 256 * 1024)
    await expect(refused).rejects.toBeInstanceOf(AnswerTooLargeError)
    await expect(refused).rejects.toMatchObject({ code: 'POS_ANSWER_TOO_LARGE' })
  })

  it('an answer cut off halfway is an error of the socket, as undici gives it', async () => {
    answer = (_body, response) => {
      response.writeHead(200, { 'content-length': '100' })
      response.write('{"partial":')
      setTimeout(() => response.socket?.destroy(), 20)
    }
    await expect(exchange(agent, base, {}, Buffer.from('{}'))).rejects.toMatchObject({ code: expect.stringMatching(/^UND_ERR/) })
  })
})

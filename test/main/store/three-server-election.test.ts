/**
 * What a rescue's read does while the two servers left of a three-server store elect a stream's new
 * leader (docs/store.md "A three-server store"): JetStream lets a stream's leader alone answer for
 * it, so until the election ends no server answers at all. A real nats-server carries the requests;
 * the JetStream API of the stream is played by a subscriber that stays silent as a leaderless stream
 * does, then answers as its new leader.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreConnection } from '../../../src-main/store'
import { natsServerAvailable, startNatsServer, type NatsServer } from '../../support/nats-server'

const MAX_AGE = 96 * 3_600_000
const COPY = 'pos.queue.S1.T-000A.payment.sale-1'

describe.runIf(natsServerAvailable())('a rescue while a stream elects its leader', () => {
  let server: NatsServer
  let leader: NatsConnection
  let asked: number
  const connections: StoreConnection[] = []

  beforeEach(async () => {
    server = await startNatsServer({ jetstream: false })
    leader = await connect({ servers: server.url })
    asked = 0
  })
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()))
    await leader.close()
    await server.close()
  })

  const admin = (electionMs?: number) => {
    const connection = new StoreConnection({ servers: [server.url], storeId: 'S1', name: 'rescue', maxAgeMs: MAX_AGE, electionMs })
    connections.push(connection)
    return connection
  }

  /**
   * The stream's API: silent for the first `silent` requests (no leader yet), then `answers` in turn
   * (the last one for every later request).
   */
  const stream = async (connection: StoreConnection, silent: number, ...answers: object[]) => {
    const subscription = leader.subscribe(`$JS.API.STREAM.INFO.${connection.laneStream('T-000A')}`, {
      callback: (_, message) => {
        if (++asked > silent) message.respond(JSON.stringify(answers[Math.min(asked - silent, answers.length) - 1]))
      },
    })
    await leader.flush()
    return subscription
  }
  /** What a server answers while the stream's group has no leader (JSClusterNotAvailErr). */
  const leaderless = {
    type: 'io.nats.jetstream.api.v1.stream_info_response',
    error: { code: 503, err_code: 10008, description: 'JetStream system temporarily unavailable' },
  }
  const info = {
    type: 'io.nats.jetstream.api.v1.stream_info_response',
    config: { name: 'POS_QUEUE_S1_T-000A', subjects: ['pos.queue.S1.T-000A.>'] },
    created: new Date().toISOString(),
    state: { messages: 1, bytes: 100, first_seq: 1, last_seq: 1, consumer_count: 0, subjects: { [COPY]: 1 } },
    total: 1,
    offset: 0,
    limit: 100_000,
  }

  it('asks again while no server answers for the stream, or one says it has no leader yet, and reads the copies once it has one', async () => {
    const connection = admin(20_000)
    await stream(connection, 2, leaderless, info)
    expect(await connection.copySubjects('T-000A', 500)).toEqual([COPY])
    expect(asked).toBe(4)
  })

  it('says in plain words that a second server is down once the election takes longer than it can', async () => {
    const connection = admin(1_000)
    await stream(connection, Number.POSITIVE_INFINITY, info)
    await expect(connection.copySubjects('T-000A', 300)).rejects.toThrow(
      /did not answer for \d+ seconds.*the two left first choose which of them answers.*a second server is down or out of reach/,
    )
    expect(asked).toBeGreaterThan(1)
  })

  it('does not ask again what a server answered, nor when it is not a rescue', async () => {
    const gone = admin(20_000)
    await stream(gone, 0, {
      type: 'io.nats.jetstream.api.v1.stream_info_response',
      error: { code: 404, err_code: 10059, description: 'stream not found' },
    })
    expect(await gone.copySubjects('T-000A', 500)).toEqual([])
    expect(asked).toBe(1)

    // A lane's connection (no election time): one request, its own time only.
    asked = 0
    const lane = admin(undefined)
    const subscription = leader.subscribe(`$JS.API.STREAM.INFO.${lane.laneStream('T-000B')}`, { callback: () => void asked++ })
    await leader.flush()
    await expect(lane.copySubjects('T-000B', 300)).rejects.toThrow()
    expect(asked).toBe(1)
    subscription.unsubscribe()
  })
})

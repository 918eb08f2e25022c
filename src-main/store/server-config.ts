/**
 * The store server's configuration (pure): `nats-server` with JetStream, one NKey user per lane that
 * may touch only what is its own, and an admin user for the rescue, lifting a fence and the fleet
 * view (docs/store.md "What a lane may do"). NATS checks a publish or a subscription by its subject
 * alone (https://docs.nats.io/running-a-nats-service/configuration/securing_nats/authorization), so
 * every right below is the subject of one JetStream API call on the lane's own stream or key:
 * a lane can create its stream but never update, purge, seal or delete it, and reads nothing of
 * another lane, not even its replies. The file holds public keys only; the seeds live elsewhere.
 */
import {
  bucketStream,
  bucketSubject,
  ENROL_BUCKET,
  eventSubject,
  FENCE_BUCKET,
  FLEET_BUCKET,
  laneInboxPrefix,
  laneStreamName,
  terminalCopies,
  terminalKey,
} from './store-names'

export interface LaneAccount {
  storeId: string
  terminalId: string
  /** The lane's NKey public key (`U...`). */
  publicKey: string
}

export interface ServerConfigInput {
  /** `host:port` the server listens on. */
  listen: string
  /** Where JetStream keeps its streams. */
  storeDir: string
  /** The server's JetStream domain (a store server in a chain). */
  domain?: string | undefined
  tls?: { certFile: string; keyFile: string } | undefined
  /** The admin's NKey public key. */
  admin: string
  lanes: LaneAccount[]
  /** When the file was written (ISO 8601), said in its first lines. */
  writtenAt: string
}

export interface Permissions {
  publish: string[]
  subscribe: string[]
}

/**
 * What a lane may publish to and subscribe to. A JetStream API call made in a domain reaches the
 * server as `$JS.<domain>.API.…` and is checked again once the server maps it to `$JS.API.…`: both
 * are allowed then.
 */
export function lanePermissions(storeId: string, terminalId: string, domain?: string): Permissions {
  const stream = laneStreamName(storeId, terminalId)
  const key = terminalKey(storeId, terminalId)
  const fence = bucketSubject(FENCE_BUCKET, key)
  const api = [
    // Its own stream: made on first use, listed, one copy read or erased, read through a consumer.
    `STREAM.CREATE.${stream}`,
    `STREAM.INFO.${stream}`,
    `STREAM.MSG.GET.${stream}`,
    `STREAM.MSG.DELETE.${stream}`,
    `CONSUMER.CREATE.${stream}`,
    `CONSUMER.CREATE.${stream}.>`,
    `CONSUMER.MSG.NEXT.${stream}.*`,
    `CONSUMER.INFO.${stream}.*`,
    `CONSUMER.DELETE.${stream}.*`,
    // The buckets made on first use (an existing one is answered as it is: never changed).
    `STREAM.CREATE.${bucketStream(FENCE_BUCKET)}`,
    `STREAM.CREATE.${bucketStream(FLEET_BUCKET)}`,
    `STREAM.CREATE.${bucketStream(ENROL_BUCKET)}`,
    // Its own fence: read by its key, and watched by a consumer filtered to that key.
    `DIRECT.GET.${bucketStream(FENCE_BUCKET)}.${fence}`,
    `CONSUMER.CREATE.${bucketStream(FENCE_BUCKET)}.*.${fence}`,
  ]
  const prefixes = domain ? ['$JS.API', `$JS.${domain}.API`] : ['$JS.API']
  return {
    publish: [
      terminalCopies(storeId, terminalId),
      eventSubject(storeId, terminalId, '>'),
      bucketSubject(FLEET_BUCKET, key),
      bucketSubject(ENROL_BUCKET, key),
      ...prefixes.flatMap((prefix) => api.map((call) => `${prefix}.${call}`)),
    ],
    subscribe: [`${laneInboxPrefix(storeId, terminalId)}.>`],
  }
}

/** A string as the NATS configuration format reads it (its JSON-compatible quoted form). */
function quoted(text: string): string {
  return JSON.stringify(text)
}

function list(items: string[], indent: string): string {
  return `[\n${items.map((item) => `${indent}  ${quoted(item)}`).join(',\n')}\n${indent}]`
}

/** The `nats-server` configuration file for a store (its text). */
export function serverConfig(input: ServerConfigInput): string {
  const lines = [
    '# The store server of pos-agent, written by `pos-agent store server-config` (docs/store.md).',
    `# Written ${input.writtenAt}. Public keys only: each account's seed is in its own file, kept apart.`,
    `listen: ${quoted(input.listen)}`,
    'jetstream {',
    `  store_dir: ${quoted(input.storeDir)}`,
    ...(input.domain ? [`  domain: ${quoted(input.domain)}`] : []),
    '}',
    ...(input.tls
      ? ['tls {', `  cert_file: ${quoted(input.tls.certFile)}`, `  key_file: ${quoted(input.tls.keyFile)}`, '  timeout: 2', '}']
      : []),
    'authorization {',
    '  users = [',
    "    # the store's admin: `pos-agent rescue`, `lift-fence` and `fleet` with --store-admin",
    `    { nkey: ${quoted(input.admin)} }`,
    ...input.lanes.flatMap((lane) => {
      const permissions = lanePermissions(lane.storeId, lane.terminalId, input.domain)
      return [
        `    # lane ${lane.terminalId} of store ${lane.storeId}`.replace(/[\r\n]/g, ' '),
        '    {',
        `      nkey: ${quoted(lane.publicKey)}`,
        '      permissions: {',
        `        publish: { allow: ${list(permissions.publish, '        ')} }`,
        `        subscribe: { allow: ${list(permissions.subscribe, '        ')} }`,
        '      }',
        '    }',
      ]
    }),
    '  ]',
    '}',
    '',
  ]
  return lines.join('\n')
}

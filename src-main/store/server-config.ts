/**
 * The store server's configuration (pure): `nats-server` with JetStream, one NKey user per lane that
 * may touch only what is its own, and an admin user for the rescue, lifting a fence and the fleet
 * view (docs/store.md "What a lane may do"). NATS checks a publish or a subscription by its subject
 * alone (https://docs.nats.io/running-a-nats-service/configuration/securing_nats/authorization), so
 * every right below is the subject of one JetStream API call on the lane's own stream or key:
 * a lane can create its stream but never update, purge, seal or delete it, and reads nothing of
 * another lane, not even its replies. The file holds public keys only; the seeds live elsewhere.
 */
import { hasSyncAlways } from './durability'
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
  /**
   * The nats-server version that will read the file (`nats-server --version`): 2.10 and later get
   * `sync_interval: always`; an older one refuses that field, and gets a comment saying what it lacks.
   * Unknown: the setting is written as a comment to enable.
   */
  serverVersion?: string | undefined
}

/**
 * The three servers of `server-config --cluster 3`: on one machine (no `hosts`), three client ports
 * from `clientPort` and three cluster ports from `clusterPort`, each server with its own folder under
 * `storeDir`; on three machines (`hosts`, three of them), each on the same ports and folder.
 */
export function clusterNodesOf(input: {
  host: string
  clientPort: number
  clusterPort: number
  storeDir: string
  hosts?: string[] | undefined
}): ClusterNode[] {
  const names = ['store-1', 'store-2', 'store-3']
  if (input.hosts !== undefined && input.hosts.length > 0) {
    if (input.hosts.length !== 3 || new Set(input.hosts).size !== 3) throw new Error('a three-server store names three different hosts')
    return input.hosts.map((host, i) => ({
      name: names[i]!,
      host,
      clientPort: input.clientPort,
      clusterPort: input.clusterPort,
      storeDir: input.storeDir,
    }))
  }
  const ports = [input.clientPort, input.clusterPort].flatMap((port) => [port, port + 1, port + 2])
  if (new Set(ports).size !== 6 || ports.some((port) => port < 1 || port > 65_535))
    throw new Error('the client ports and the cluster ports of three servers on one machine overlap or are out of range')
  return names.map((name, i) => ({
    name,
    host: input.host,
    clientPort: input.clientPort + i,
    clusterPort: input.clusterPort + i,
    storeDir: `${input.storeDir.replace(/\/+$/, '')}/${name}`,
  }))
}

/** One server of a three-server store (a JetStream cluster). */
export interface ClusterNode {
  /** The server's name in the cluster (`server_name`): JetStream keeps its streams under it. */
  name: string
  /** The host the lanes and the other servers reach it at. */
  host: string
  /** Where it listens for the lanes. */
  clientPort: number
  /** Where it listens for the other two servers. */
  clusterPort: number
  /** Its own JetStream folder (three servers on one machine must not share one). */
  storeDir: string
}

export interface ClusterInput extends Omit<ServerConfigInput, 'listen' | 'storeDir'> {
  /** The cluster's name, the same in the three files. */
  clusterName: string
  nodes: ClusterNode[]
  /** The user and password the three servers give each other (routes); never a lane's. */
  routeUser: string
  routePassword: string
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

/**
 * JetStream's disk setting for the version that reads the file. By default JetStream writes to disk
 * every two minutes and acknowledges before (docs/store.md "How safe the store's copy is").
 */
function syncLines(version: string | undefined): string[] {
  if (version !== undefined && hasSyncAlways(version))
    return [
      '  # Every copy on disk before the store server acknowledges it (nats-server 2.10 or later); then set',
      "  # store.syncAlways: true in the terminals' configuration, so that they count their copies as synced.",
      '  sync_interval: always',
    ]
  if (version !== undefined)
    return [
      `  # nats-server ${version.replace(/[\r\n]/g, ' ')} has no sync_interval (2.10 or later has): it writes copies to disk`,
      '  # up to two minutes after acknowledging them, so a single server keeps them "buffered". Upgrade it,',
      '  # or run three servers (server-config --cluster 3) with store.replicas: 3 (docs/store.md).',
    ]
  return [
    '  # With nats-server 2.10 or later, remove the # below to write every copy to disk before it is',
    "  # acknowledged, and set store.syncAlways: true in the terminals' configuration (docs/store.md).",
    '  # sync_interval: always',
  ]
}

/** The `nats-server` configuration file for a store (its text). */
export function serverConfig(input: ServerConfigInput): string {
  return serverText(input, { listen: input.listen, storeDir: input.storeDir })
}

/**
 * The three files of a three-server store (a JetStream cluster): each server with its own name,
 * ports and JetStream folder, routes to the other two, and the same accounts. The lanes list all
 * three servers and make their stream and buckets with 3 replicas (`store.replicas: 3`), so each copy
 * is acknowledged once two of the three hold it.
 */
export function clusterConfigs(input: ClusterInput): Array<{ node: ClusterNode; text: string }> {
  if (input.nodes.length !== 3) throw new Error('a three-server store has three servers')
  const route = (node: ClusterNode) =>
    `nats-route://${encodeURIComponent(input.routeUser)}:${encodeURIComponent(input.routePassword)}@${node.host}:${node.clusterPort}`
  return input.nodes.map((node) => ({
    node,
    text: serverText(input, {
      listen: `${node.host}:${node.clientPort}`,
      storeDir: node.storeDir,
      cluster: [
        `server_name: ${quoted(node.name)}`,
        'cluster {',
        `  name: ${quoted(input.clusterName)}`,
        `  listen: ${quoted(`${node.host}:${node.clusterPort}`)}`,
        '  # The servers of this store sign in to each other with this user; no lane knows it.',
        `  authorization { user: ${quoted(input.routeUser)}, password: ${quoted(input.routePassword)}, timeout: 2 }`,
        `  routes: ${list(input.nodes.filter((other) => other !== node).map(route), '  ')}`,
        '}',
      ],
    }),
  }))
}

function serverText(
  input: Omit<ServerConfigInput, 'listen' | 'storeDir'>,
  at: { listen: string; storeDir: string; cluster?: string[] },
): string {
  const lines = [
    '# The store server of pos-agent, written by `pos-agent store server-config` (docs/store.md).',
    at.cluster
      ? `# Written ${input.writtenAt}. Public keys only, and the password the store's servers give each other: readable by the server's account alone.`
      : `# Written ${input.writtenAt}. Public keys only: each account's seed is in its own file, kept apart.`,
    ...(at.cluster ?? []),
    `listen: ${quoted(at.listen)}`,
    'jetstream {',
    `  store_dir: ${quoted(at.storeDir)}`,
    ...(input.domain ? [`  domain: ${quoted(input.domain)}`] : []),
    ...syncLines(input.serverVersion),
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

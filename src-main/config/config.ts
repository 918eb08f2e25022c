/**
 * The agent's configuration: one JSON file validated with zod, found via `--config`, then
 * `POS_AGENT_CONFIG`, then `<user config dir>/config.json`. No file at all means training mode
 * (built-in training host and simulated PIN pad).
 */
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve, dirname } from 'node:path'
import { z } from 'zod'
import { SIGN_TYPES } from '../gateway'
import { isKnownCurrency } from '../../src-shared/money'
import { ConfigError } from './config-error'
import { userConfigDir, userDataDir } from './paths'

const httpsUrl = z.string().refine((s) => {
  try {
    return new URL(s).protocol === 'https:'
  } catch {
    return false
  }
}, 'must be an https:// URL (TLS is required by the gateway specification)')

const natsUrl = z.string().refine((s) => {
  try {
    return ['nats:', 'tls:'].includes(new URL(s).protocol)
  } catch {
    return false
  }
}, 'must be a nats:// or tls:// URL')

/** A `nats://` URL (no TLS) to anything but this machine's loopback. */
function plainToAnotherMachine(server: string): boolean {
  const url = new URL(server)
  if (url.protocol !== 'nats:') return false
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return !(host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))
}

const id = (what: string) => z.string().min(1, `${what} must not be empty`).max(64, `${what} must be at most 64 characters`)

export const configSchema = z
  .strictObject({
    /** `training` may only be chosen explicitly or by having no configuration at all. */
    mode: z.enum(['production', 'training']).default('production'),
    host: z.strictObject({
      offlineBaseUrl: httpsUrl,
      baseUrl: httpsUrl,
      aid: id('aid'),
      signType: z.enum(SIGN_TYPES).default('HMAC-SHA256'),
      keyId: z.string().min(1).max(64).optional(),
      /** An extra CA (PEM) to trust besides the public roots; relative to the config file. */
      caFile: z.string().min(1).optional(),
      connectTimeoutMs: z.number().int().min(500).max(60_000).default(10_000),
      /** docs/gateway.md §2 (the specification's retry rule 8): wait at least 45 s for a POST's answer. */
      responseTimeoutMs: z.number().int().min(1_000).max(180_000).default(45_000),
    }),
    merchant: z.strictObject({
      storeId: id('storeId'),
      /** Part of every merchantTransID (`<terminalId>-<sequence>-...`), so kept short. */
      terminalId: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'terminalId must be 1 to 40 letters, digits, "-", "_" or "."'),
      merchantId: id('merchantId'),
      storeName: z.string().max(64).optional(),
      /** The store's address as its receipts print it (docs/receipts.md): up to three short lines. */
      storeAddress: z.array(z.string().min(1).max(48)).max(3).default([]),
      /** Extra pspInfo fields sent with every payment (mcc, merchantName, city...). */
      pspInfo: z.record(z.string(), z.string().max(256)).default({}),
    }),
    currency: z.string().refine(isKnownCurrency, 'must be an ISO 4217 alphabetic code such as "USD"').default('USD'),
    /** Restaurant: authorise (autoCapture false), adjust tips, capture base + tip at close. Retail: capture at once. */
    restaurantMode: z.boolean().default(false),
    device: z
      .strictObject({
        /** Serial port path; when absent the port is found by vendor/product id. */
        path: z.string().min(1).optional(),
        vendorId: z
          .string()
          .regex(/^[0-9a-fA-F]{4}$/)
          .optional(),
        productId: z
          .string()
          .regex(/^[0-9a-fA-F]{4}$/)
          .optional(),
        baudRate: z.number().int().positive().default(115_200),
        dataBits: z.union([z.literal(7), z.literal(8)]).default(8),
        parity: z.enum(['none', 'even', 'odd']).default('none'),
        stopBits: z.union([z.literal(1), z.literal(2)]).default(1),
        cardReadTimeoutSeconds: z.number().int().min(5).max(300).default(60),
        /** Magstripe fallback after a failed chip read (posEntryMode then says fallback). */
        allowFallback: z.boolean().default(true),
      })
      .prefault({}),
    offline: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** Per transaction and total stored, in major units of `currency` (Clover's defaults: 500 / 5000; Moneris 250). */
        perTransaction: z.number().positive().default(250),
        totalStored: z.number().positive().default(5_000),
        maxStoredCount: z.number().int().positive().default(500),
        maxOldestAgeHours: z.number().positive().default(24),
        allowSwipe: z.boolean().default(false),
        allowOnlinePinCards: z.boolean().default(false),
      })
      .prefault({}),
    /**
     * Sale amounts, in major units of `currency` (docs/product-defaults.md §6). Above `maxSaleAmount` a
     * sale is refused before the card is asked for: one Enter too many must not charge a fortune. Above
     * `confirmAbove` the cashier (or the POS) confirms the amount first.
     */
    limits: z
      .strictObject({
        maxSaleAmount: z.number().positive().default(10_000),
        confirmAbove: z.number().min(0).default(1_000),
        /** The most one return without a sale on this terminal (a manager's approval) may credit. */
        unreferencedReturnMax: z.number().min(0).default(100),
        /** The most returns without a sale may credit to one card in a business day. */
        unreferencedReturnPerCardDay: z.number().min(0).default(100),
        /** The most returns without a sale may credit on this terminal in a business day. */
        unreferencedReturnPerDay: z.number().min(0).default(500),
      })
      .prefault({}),
    tips: z.strictObject({ tolerancePercent: z.number().min(0).max(1000).default(20) }).prefault({}),
    /**
     * The nexo Terminal API endpoint (docs/nexo.md): HTTPS, off by default. `host` stays 127.0.0.1 unless
     * the POS runs on another machine of the store's LAN; 8443 is the port nexo clients use.
     */
    nexo: z
      .strictObject({
        enabled: z.boolean().default(false),
        host: z.union([z.ipv4(), z.ipv6(), z.literal('localhost')]).default('127.0.0.1'),
        port: z.number().int().min(1).max(65_535).default(8443),
      })
      .prefault({}),
    /**
     * The ZVT terminal side (docs/zvt.md): a cash register's ZVT over TCP, off by default. `host` stays
     * 127.0.0.1 unless the register runs on another machine of the store's LAN; 20007 is ZVT's port.
     * `refunds`: a register may refund (06 31) without a sale, within the limits below. `serial`: a
     * register on a serial port too (PA00P016: 9600 baud, 8N2 by default).
     */
    zvt: z
      .strictObject({
        enabled: z.boolean().default(false),
        host: z.union([z.ipv4(), z.ipv6(), z.literal('localhost')]).default('127.0.0.1'),
        port: z.number().int().min(1).max(65_535).default(20_007),
        refunds: z.boolean().default(false),
        /** Characters per line of the register's receipt printer, for the receipts it prints (06 D1/06 D3). */
        receiptWidth: z.number().int().min(24).max(56).default(40),
        serial: z
          .strictObject({
            path: z.string().min(1),
            baudRate: z.number().int().positive().default(9_600),
            stopBits: z.union([z.literal(1), z.literal(2)]).default(2),
          })
          .optional(),
      })
      .prefault({}),
    /**
     * The receipt printer (docs/receipts.md): an ESC/POS thermal printer on a serial or USB-serial port,
     * or on the network (raw TCP, port 9100 by convention). Absent: receipts print from the screen.
     */
    printer: z
      .strictObject({
        connection: z.discriminatedUnion('kind', [
          z.strictObject({ kind: z.literal('serial'), path: z.string().min(1), baudRate: z.number().int().positive().default(9_600) }),
          z.strictObject({
            kind: z.literal('network'),
            host: z.string().min(1).max(253),
            port: z.number().int().min(1).max(65_535).default(9_100),
          }),
        ]),
        paperMm: z.union([z.literal(58), z.literal(80)]).default(80),
        /** How long the printer may take to connect or answer its status before it counts as not answering. */
        timeoutMs: z.number().int().min(200).max(30_000).default(3_000),
      })
      .optional(),
    /**
     * Email receipts through the store's own SMTP server. The password, if any, is kept in the OS
     * keychain (`pos-agent email password`), never in this file. `security: none` (no TLS) is for
     * training only.
     */
    email: z
      .strictObject({
        host: z.string().min(1).max(253),
        port: z.number().int().min(1).max(65_535).default(587),
        security: z.enum(['starttls', 'tls', 'none']).default('starttls'),
        user: z.string().min(1).max(254).optional(),
        from: z.email('must be an email address'),
        /** An extra CA (PEM) to trust for the SMTP server's certificate; relative to the config file. */
        caFile: z.string().min(1).optional(),
        timeoutMs: z.number().int().min(1_000).max(120_000).default(15_000),
      })
      .optional(),
    /**
     * The store's NATS JetStream server (docs/store.md): a sealed copy of every queued item, the
     * rescue's fence and the fleet's heartbeats. The password or NKey seed is kept in the OS keychain
     * (`pos-agent store password`, `pos-agent store nkey`), never in this file.
     */
    store: z
      .strictObject({
        servers: z.array(natsUrl).min(1, 'name at least one store server'),
        /**
         * The CA (PEM) that signed the store server's certificate, for `tls://` servers whose
         * certificate is the store's own; relative to the config file. Without it, the public roots.
         */
        caFile: z.string().min(1).optional(),
        /** The store server's JetStream domain, when terminals reach it through a chain's hub. */
        domain: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .optional(),
        user: z.string().min(1).max(128).optional(),
        /** The public NKey (`U...`) this terminal signs in with; its seed is in the keychain. */
        nkey: z
          .string()
          .regex(/^U[A-Z2-7]{55}$/, 'must be a user NKey: "U" and 55 more capitals and digits')
          .optional(),
        /** The store's recovery public key, as `pos-agent store keygen` printed it. */
        recoveryPublicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the 43 characters `pos-agent store keygen` printed'),
        /** An offline approval waits for the store's copy (on by default once a store is configured). */
        requireReplica: z.boolean().default(true),
        /**
         * Offline approvals need a copy that survives a power cut at the store server (`synced`:
         * written to disk at once, or kept on three servers); while it is only in one server's memory
         * (`buffered`) they are refused (docs/store.md "How safe the store's copy is").
         */
        requireDurable: z.boolean().default(false),
        /**
         * The store server runs with `sync_interval: always` (nats-server 2.10 or later), as
         * `pos-agent store server-config` writes it: a terminal cannot read that setting, so it is stated here.
         */
        syncAlways: z.boolean().default(false),
        /** The store is three servers: each lane makes its stream and buckets with 3 replicas. */
        replicas: z.union([z.literal(1), z.literal(3)]).default(1),
        /** How long a sale waits for the copy's acknowledgement before it needs the bank. */
        ackTimeoutMs: z.number().int().min(50).max(10_000).default(1_500),
        heartbeatSeconds: z.number().int().min(1).max(600).default(15),
        /**
         * How long a lane's heartbeat must have been silent before `pos-agent rescue` may take its
         * queue (docs/store.md "The rescue"); without it, four heartbeats and at least a minute.
         */
        rescueAfterSeconds: z.number().int().min(0).max(86_400).optional(),
      })
      .refine((store) => !(store.user && store.nkey), { message: 'give either user or nkey, not both', path: ['nkey'] })
      // The client takes one TLS setting for all its servers: a list that mixes them is a mistake.
      .refine((store) => new Set(store.servers.map((s) => new URL(s).protocol)).size === 1, {
        message: 'name every store server with the same scheme: all tls://, or all nats://',
        path: ['servers'],
      })
      .optional(),
    duplicateWindowMinutes: z.number().min(0).max(1440).default(10),
    /**
     * The people at the counter (docs/local-api.md "Operators"): a sign-in unused this long ends by
     * itself, so a manager who walked away approves nothing more (0: never); a void of a sale older
     * than `voidWithoutManagerMinutes` needs a manager.
     */
    operators: z
      .strictObject({
        idleSignOutMinutes: z
          .number()
          .int()
          .min(0)
          .max(24 * 60)
          .default(15),
        voidWithoutManagerMinutes: z
          .number()
          .int()
          .min(0)
          .max(7 * 24 * 60)
          .default(30),
      })
      .prefault({}),
    /**
     * Training mode's simulated customer: at a POS's card prompt they present the default test card a
     * moment after it when nobody picked one (a counter's card prompt always waits for the trainee's
     * pick); `autoPresentCard: false` leaves a POS's prompt waiting too (to show a card prompt's time
     * limit, its warning and its extension).
     */
    training: z.strictObject({ autoPresentCard: z.boolean().default(true) }).prefault({}),
    dataDir: z.string().min(1).optional(),
    log: z
      .strictObject({
        level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']).default('info'),
        maxFileSizeMb: z.number().int().min(1).max(1024).default(10),
        maxFiles: z.number().int().min(1).max(100).default(5),
      })
      .prefault({}),
  })
  // TLS can be left out only where nothing real is sent (docs/gateway.md §2 for the host, the same for mail).
  .refine((config) => config.email?.security !== 'none' || config.mode === 'training', {
    path: ['email', 'security'],
    message: '"none" (no TLS) is allowed in training mode only: use "starttls" or "tls"',
  })
  // Without TLS the store password (or the NKey's signed nonce), the fences and the lanes' events
  // cross the store's network in clear, and anyone on it could fence a lane or lift a fence: only a
  // store server on this very machine is spared it (docs/store.md "TLS").
  .superRefine((config, ctx) => {
    if (config.mode === 'training') return
    config.store?.servers.forEach((server, index) => {
      if (!plainToAnotherMachine(server)) return
      ctx.addIssue({
        code: 'custom',
        path: ['store', 'servers', index],
        message: `${server} has no TLS: use tls:// (with store.caFile when the store server's certificate is the store's own); nats:// is for a store server on this machine (127.0.0.1), or training mode`,
      })
    })
  })

export type AgentConfig = z.infer<typeof configSchema>

export interface LoadedConfig {
  config: AgentConfig
  /** The file it came from; undefined for the built-in training configuration. */
  file: string | undefined
  dataDir: string
}

export interface ConfigLocation {
  flag?: string | undefined
  env?: NodeJS.ProcessEnv
}

/** Which file would be read, and why; undefined when none exists (training mode). */
export function locateConfig({ flag, env = process.env }: ConfigLocation = {}): string | undefined {
  if (flag !== undefined) {
    if (!existsSync(flag)) throw new ConfigError(`config file given with --config does not exist: ${flag}`)
    return resolve(flag)
  }
  if (env.POS_AGENT_CONFIG) {
    if (!existsSync(env.POS_AGENT_CONFIG))
      throw new ConfigError(`config file named by POS_AGENT_CONFIG does not exist: ${env.POS_AGENT_CONFIG}`)
    return resolve(env.POS_AGENT_CONFIG)
  }
  const user = join(userConfigDir(env), 'config.json')
  return existsSync(user) ? user : undefined
}

export function parseConfig(raw: unknown, file: string): AgentConfig {
  const parsed = configSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.map(String).join('.') || '(top level)'
  const message =
    issue?.code === 'unrecognized_keys'
      ? `${issue.keys.length === 1 ? 'unknown field' : 'unknown fields'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : (issue?.message ?? 'is invalid')
  throw new ConfigError(`${file}: ${field}: ${message}`)
}

export function loadConfig(location: ConfigLocation = {}): LoadedConfig | undefined {
  const env = location.env ?? process.env
  const file = locateConfig(location)
  if (file === undefined) return undefined
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ConfigError(`${file}: not readable JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  const config = parseConfig(raw, file)
  const base = dirname(file)
  if (config.host.caFile !== undefined && !isAbsolute(config.host.caFile)) config.host.caFile = resolve(base, config.host.caFile)
  if (config.email?.caFile !== undefined && !isAbsolute(config.email.caFile)) config.email.caFile = resolve(base, config.email.caFile)
  if (config.store?.caFile !== undefined && !isAbsolute(config.store.caFile)) config.store.caFile = resolve(base, config.store.caFile)
  const dataDir = config.dataDir ? resolve(base, config.dataDir) : userDataDir(env)
  return { config, file, dataDir }
}

/** Identity of the built-in training store; the host URLs are filled in once the training host runs. */
export const TRAINING_IDENTITY = {
  aid: 'TRAINING-ACQ',
  storeId: 'TRAIN-STORE-1',
  terminalId: 'TRAIN-T01',
  merchantId: 'TRAIN-MERCHANT',
} as const

/**
 * A configuration file tried in training (`serve --training`): its settings as written, checked as
 * training uses them, with the training host and ids in place of its own (so a file that sets only
 * what it tries, `{"restaurantMode": true}`, is enough), and its data folder. Undefined: no file.
 */
export function loadTriedConfig(
  location: ConfigLocation = {},
): { file: string; settings: Record<string, unknown>; dataDir: string } | undefined {
  const env = location.env ?? process.env
  const file = locateConfig(location)
  if (file === undefined) return undefined
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ConfigError(`${file}: not readable JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(`${file}: (top level): expected an object`)
  const settings = raw as Record<string, unknown>
  // Checked with the training host's settings, as trainingConfig will build it: the same words as loadConfig's for a bad field.
  parseConfig(triedInTraining('https://127.0.0.1', join(dirname(file), 'training-ca.pem'), settings), file)
  const dataDir = typeof settings.dataDir === 'string' ? resolve(dirname(file), settings.dataDir) : userDataDir(env)
  return { file, settings, dataDir }
}

/** What training runs with: `tried`'s settings, with the training host, reader ids and store in place. */
function triedInTraining(hostUrl: string, caFile: string, tried?: Record<string, unknown>): Record<string, unknown> {
  const merchant = (tried?.merchant ?? {}) as Record<string, unknown>
  return {
    // A configuration tried in training (serve --training): everything it sets (restaurant mode,
    // limits, tips, receipts, the store's name) but the host, the reader and the ids, which stay the
    // training host's, so nothing it does can reach a real host or mix with the terminal's journal.
    ...(tried ?? {}),
    mode: 'training',
    // The training host answers in milliseconds; 8 s (not the gateway's 45 s) lets a trainer show a
    // timeout and its reversal without a long wait.
    host: { offlineBaseUrl: hostUrl, baseUrl: hostUrl, aid: TRAINING_IDENTITY.aid, caFile, responseTimeoutMs: 8_000 },
    merchant: {
      pspInfo: { merchantName: 'TRAINING STORE', mcc: '5812' },
      storeName: 'Training Store',
      storeAddress: ['1 Training Street', 'Sample City'],
      ...merchant,
      storeId: TRAINING_IDENTITY.storeId,
      terminalId: TRAINING_IDENTITY.terminalId,
      merchantId: TRAINING_IDENTITY.merchantId,
    },
  }
}

export function trainingConfig(hostUrl: string, caFile: string, dataDir: string, tried?: Record<string, unknown>): LoadedConfig {
  return { config: configSchema.parse(triedInTraining(hostUrl, caFile, tried)), file: undefined, dataDir }
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { engineSettings } from '../../../src-main/app'
import { ConfigError, loadConfig, loadTriedConfig, locateConfig, parseConfig } from '../../../src-main/config'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-config-'))
  dirs.push(dir)
  return dir
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

const valid = {
  host: {
    offlineBaseUrl: 'https://offline.acquirer.example',
    baseUrl: 'https://api.acquirer.example',
    aid: 'ACQ-77',
    caFile: 'extra-ca.pem',
  },
  merchant: { storeId: 'S1', terminalId: 'T1', merchantId: 'M1', pspInfo: { mcc: '5812' } },
  currency: 'EUR',
}

function writeConfig(dir: string, content: unknown): string {
  const file = join(dir, 'config.json')
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

describe('configuration file', () => {
  it('loads, applies defaults and resolves the CA file next to the config', () => {
    const dir = tempDir()
    const loaded = loadConfig({ flag: writeConfig(dir, valid), env: {} })!
    expect(loaded.config.mode).toBe('production')
    expect(loaded.config.host.signType).toBe('HMAC-SHA256')
    expect(loaded.config.host.responseTimeoutMs).toBe(45_000)
    expect(loaded.config.host.caFile).toBe(join(dir, 'extra-ca.pem'))
    expect(loaded.config.log.level).toBe('info')
  })

  it('is found via --config, then POS_AGENT_CONFIG, then the user config folder; none means training', () => {
    const a = tempDir()
    const b = tempDir()
    const home = tempDir()
    const fileA = writeConfig(a, valid)
    const fileB = writeConfig(b, valid)
    expect(locateConfig({ flag: fileA, env: { POS_AGENT_CONFIG: fileB } })).toBe(fileA)
    expect(locateConfig({ env: { POS_AGENT_CONFIG: fileB } })).toBe(fileB)
    expect(locateConfig({ env: { XDG_CONFIG_HOME: home } })).toBeUndefined()
    const userDir = join(home, 'pos-agent')
    mkdirSync(userDir)
    const userFile = writeConfig(userDir, valid)
    expect(locateConfig({ env: { XDG_CONFIG_HOME: home } })).toBe(userFile)
    expect(loadConfig({ env: { XDG_CONFIG_HOME: tempDir() } })).toBeUndefined()
  })

  it.each([
    [
      { ...valid, host: { ...valid.host, offlineBaseUrl: 'http://offline.acquirer.example' } },
      /host\.offlineBaseUrl: must be an https:\/\/ URL/,
    ],
    [{ ...valid, host: { ...valid.host, signType: 'MD5' } }, /host\.signType/],
    [{ ...valid, merchant: { ...valid.merchant, terminalId: '' } }, /merchant\.terminalId: terminalId must be 1 to 40 letters/],
    [{ ...valid, currency: 'EURO' }, /currency: must be an ISO 4217/],
    [{ ...valid, hostt: {} }, /unknown field "hostt"/],
    [{ ...valid, host: { ...valid.host, responseTimeoutMs: '45' } }, /host\.responseTimeoutMs/],
    [{ ...valid, limits: { maxSaleAmount: 0 } }, /limits\.maxSaleAmount/],
    [{ ...valid, limits: { confirmAbove: -1 } }, /limits\.confirmAbove/],
    [{ ...valid, limits: { maxSale: 500 } }, /limits: unknown field "maxSale"/],
  ])('names the bad field: %#', (content, message) => {
    const file = writeConfig(tempDir(), content)
    expect(() => loadConfig({ flag: file, env: {} })).toThrow(ConfigError)
    expect(() => loadConfig({ flag: file, env: {} })).toThrow(message)
  })

  it('reports unreadable JSON and a missing file clearly', () => {
    const file = writeConfig(tempDir(), '{ "host": ')
    expect(() => loadConfig({ flag: file, env: {} })).toThrow(/not readable JSON/)
    expect(() => loadConfig({ flag: '/nonexistent/config.json', env: {} })).toThrow(/--config does not exist/)
  })
})

describe('sale limits', () => {
  it('default to at most 10 000 a sale, confirmed above 1 000, a return without a sale at most 100 (100 a card and 500 in all a day), in major units of the currency', () => {
    expect(parseConfig(valid, 'config.json').limits).toEqual({
      maxSaleAmount: 10_000,
      confirmAbove: 1_000,
      unreferencedReturnMax: 100,
      unreferencedReturnPerCardDay: 100,
      unreferencedReturnPerDay: 500,
    })
  })

  it.each([
    [
      'EUR',
      { maxSaleAmount: 2_500.5, confirmAbove: 99.99, unreferencedReturnMax: 50.5, unreferencedReturnPerCardDay: 75.25 },
      {
        maxSaleMinor: 250_050,
        confirmAboveMinor: 9_999,
        unreferencedReturnMaxMinor: 5_050,
        unreferencedReturnPerCardDayMinor: 7_525,
        unreferencedReturnPerDayMinor: 50_000,
      },
    ],
    [
      'JPY',
      { maxSaleAmount: 500_000, confirmAbove: 50_000 },
      {
        maxSaleMinor: 500_000,
        confirmAboveMinor: 50_000,
        unreferencedReturnMaxMinor: 100,
        unreferencedReturnPerCardDayMinor: 100,
        unreferencedReturnPerDayMinor: 500,
      },
    ],
    [
      'BHD',
      { maxSaleAmount: 4_000, confirmAbove: 0.5 },
      {
        maxSaleMinor: 4_000_000,
        confirmAboveMinor: 500,
        unreferencedReturnMaxMinor: 100_000,
        unreferencedReturnPerCardDayMinor: 100_000,
        unreferencedReturnPerDayMinor: 500_000,
      },
    ],
  ])('reach the engine in minor units of the terminal currency (%s)', (currency, limits, expected) => {
    const settings = engineSettings(parseConfig({ ...valid, currency, limits }, 'config.json'), '/data')
    expect(settings.currency).toBe(currency)
    expect(settings.limits).toEqual(expected)
  })
})

describe('the nexo endpoint', () => {
  it('is off, on 127.0.0.1:8443, unless configured: loopback is the default, a door to the LAN is opened only on purpose', () => {
    expect(parseConfig(valid, 'config.json').nexo).toEqual({ enabled: false, host: '127.0.0.1', port: 8443 })
    expect(parseConfig({ ...valid, nexo: { enabled: true } }, 'config.json').nexo).toEqual({ enabled: true, host: '127.0.0.1', port: 8443 })
  })

  it.each([
    ['an IPv4 LAN address', { enabled: true, host: '192.168.1.20', port: 9443 }],
    ['an IPv6 LAN address', { enabled: true, host: 'fd00::2', port: 8443 }],
  ])('takes the terminal address it is configured with: %s', (_, nexo) => {
    expect(parseConfig({ ...valid, nexo }, 'config.json').nexo).toEqual(nexo)
  })

  it.each([
    [{ host: 'pos.example' }, /nexo\.host/],
    [{ host: 'https://192.168.1.20' }, /nexo\.host/],
    [{ port: 70_000 }, /nexo\.port/],
    [{ bind: '0.0.0.0' }, /nexo: unknown field "bind"/],
  ])('names a bad nexo field: %#', (nexo, message) => {
    expect(() => parseConfig({ ...valid, nexo }, 'config.json')).toThrow(ConfigError)
    expect(() => parseConfig({ ...valid, nexo }, 'config.json')).toThrow(message)
  })
})

describe('receipts beyond the screen', () => {
  it('has no printer and no email unless configured; a printer gets 80 mm paper, 9600 baud or port 9100, and 3 s to answer', () => {
    const plain = parseConfig(valid, 'config.json')
    expect([plain.printer, plain.email]).toEqual([undefined, undefined])
    expect(parseConfig({ ...valid, printer: { connection: { kind: 'serial', path: '/dev/ttyUSB1' } } }, 'config.json').printer).toEqual({
      connection: { kind: 'serial', path: '/dev/ttyUSB1', baudRate: 9_600 },
      paperMm: 80,
      timeoutMs: 3_000,
    })
    expect(
      parseConfig({ ...valid, printer: { connection: { kind: 'network', host: '192.168.1.40' }, paperMm: 58 } }, 'config.json').printer,
    ).toMatchObject({ connection: { kind: 'network', host: '192.168.1.40', port: 9_100 }, paperMm: 58 })
  })

  it('sends mail over STARTTLS on 587 unless told otherwise; no TLS only in training mode', () => {
    const email = { host: 'smtp.example.com', user: 'till-1', from: 'receipts@example.com' }
    expect(parseConfig({ ...valid, email }, 'config.json').email).toEqual({ ...email, port: 587, security: 'starttls', timeoutMs: 15_000 })
    const plain = { ...email, security: 'none' }
    expect(() => parseConfig({ ...valid, email: plain }, 'config.json')).toThrow(
      /email\.security: "none" \(no TLS\) is allowed in training mode only/,
    )
    expect(parseConfig({ ...valid, mode: 'training', email: plain }, 'config.json').email?.security).toBe('none')
  })

  it.each([
    [{ printer: { connection: { kind: 'usb', path: 'x' } } }, /printer\.connection/],
    [{ printer: { connection: { kind: 'serial', path: '/dev/ttyS0' }, paperMm: 76 } }, /printer\.paperMm/],
    [{ email: { host: 'smtp.example.com', from: 'not an address' } }, /email\.from: must be an email address/],
    [{ email: { host: 'smtp.example.com', from: 'a@example.com', password: 'secret' } }, /email: unknown field "password"/],
  ])('names a bad receipt field: %#', (extra, message) => {
    expect(() => parseConfig({ ...valid, ...extra }, 'config.json')).toThrow(message)
  })
})

describe('a configuration tried in training', () => {
  it('needs only what it tries: no host, no ids', () => {
    const dir = tempDir()
    const file = writeConfig(dir, { restaurantMode: true, dataDir: 'data' })
    // As a terminal's own configuration it is incomplete; tried in training it is enough.
    expect(() => loadConfig({ flag: file, env: {} })).toThrow(/host: /)
    expect(loadTriedConfig({ flag: file, env: {} })).toEqual({
      file,
      settings: { restaurantMode: true, dataDir: 'data' },
      dataDir: join(dir, 'data'),
    })
  })

  it('names a bad field in the words loadConfig uses, and refuses what is not an object', () => {
    const dir = tempDir()
    expect(() => loadTriedConfig({ flag: writeConfig(dir, { restaurantMode: 'yes' }), env: {} })).toThrow(/config\.json: restaurantMode: /)
    expect(() => loadTriedConfig({ flag: writeConfig(dir, [1]), env: {} })).toThrow(ConfigError)
    expect(() => loadTriedConfig({ flag: writeConfig(dir, '{'), env: {} })).toThrow(/not readable JSON/)
  })
})

/**
 * `pos-agent serve --training` on a computer without an OS keychain (the Secret Service's bus is not
 * there): a production configuration with restaurant mode is tried against the embedded training host
 * and the simulated PIN pad. It starts (no exit 4), the cashier sees the configuration's settings
 * (restaurant mode, the store's name, its limits), a sale is authorised and left open for its tip as
 * restaurant mode does, and nothing is written to the terminal's own journal or sent to its host.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JOURNAL_FILE } from '../../../src-main/journal'
import { commandAvailable, INSTALL, requireComponent } from '../../support/system'

const present = requireComponent('socat', commandAvailable('socat'), INSTALL.socat)

describe.runIf(present)('trying a configuration in training mode', () => {
  const work = mkdtempSync(join(tmpdir(), 'pos-serve-training-'))
  const dataDir = join(work, 'data')
  const configFile = join(work, 'config.json')
  let child: ChildProcess | undefined
  const lines: string[] = []
  let ui = ''

  beforeAll(async () => {
    writeFileSync(
      configFile,
      JSON.stringify({
        // A real terminal's settings: its host is never asked (an address that cannot resolve).
        mode: 'production',
        host: { offlineBaseUrl: 'https://acquirer.invalid/offline', baseUrl: 'https://acquirer.invalid', aid: 'REAL-AID-1' },
        merchant: { storeId: 'S-9', terminalId: 'REAL-T9', merchantId: 'M-9', storeName: 'Trattoria Prova' },
        currency: 'EUR',
        restaurantMode: true,
        limits: { maxSaleAmount: 800 },
        tips: { tolerancePercent: 25 },
      }),
    )
    child = spawn(
      process.execPath,
      ['bin/pos-agent.js', '--config', configFile, '--data-dir', dataDir, 'serve', '--training', '--port', '0'],
      {
        env: {
          ...process.env,
          POS_AGENT_CONFIG: '',
          XDG_CONFIG_HOME: join(work, 'xdg'),
          DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(work, 'no-bus')}`,
          DISPLAY: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    )
    child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()))
    ui = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve --training printed no UI line in 45 s:\n${lines.join('\n')}`)), 45_000)
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        lines.push(line)
        const found = /^pos-agent serving the cashier UI at (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)
        if (found) {
          clearTimeout(timer)
          resolve(found[1]!)
        }
      })
      child!.once('exit', (code) => reject(new Error(`serve --training exited (code ${code}):\n${lines.join('\n')}`)))
    })
  }, 60_000)

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const closed = new Promise((resolve) => child!.once('close', resolve))
      child.kill('SIGTERM')
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))])
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
    }
    rmSync(work, { recursive: true, force: true })
  }, 30_000)

  const call = async (operation: string, body: unknown): Promise<{ ok: boolean; value?: Record<string, unknown>; error?: unknown }> => {
    const token = readFileSync(join(dataDir, 'training', 'api-token'), 'utf8').trim()
    const response = await request(`${ui}/v1/ops/${operation}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return (await response.body.json()) as { ok: boolean; value?: Record<string, unknown> }
  }

  it('starts without a keychain, in training, with the configuration’s settings and a journal of its own', async () => {
    expect(lines.join('\n')).toMatch(/TRAINING MODE: training host at https:\/\/127\.0\.0\.1:\d+/)
    expect(lines.join('\n')).toContain(`trying the settings of ${configFile}`)
    const info = await call('appInfo', {})
    expect(info.ok).toBe(true)
    expect(info.value).toMatchObject({
      mode: 'training',
      restaurantMode: true,
      storeName: 'Trattoria Prova',
      currency: 'EUR',
      tipTolerancePercent: 25,
    })
    expect((info.value!.saleLimits as { maxSaleMinor: number }).maxSaleMinor).toBe(80_000)
    // The terminal's own journal is not touched: the trial keeps its own under training/.
    expect(existsSync(join(dataDir, JOURNAL_FILE))).toBe(false)
    expect(existsSync(join(dataDir, 'training', JOURNAL_FILE))).toBe(true)
  })

  it('authorises a sale and leaves it open for its tip, as restaurant mode does', async () => {
    const started = await call('startSale', { amountMinor: 4200, currency: 'EUR' })
    expect(started.ok, JSON.stringify(started)).toBe(true)
    const id = started.value!.id as string
    // The simulated customer holds out the default card; the training host approves it.
    let sale: Record<string, unknown> | undefined
    for (let i = 0; i < 60; i++) {
      sale = (await call('getSale', { id })).value
      if (sale && !['created', 'readingCard', 'sending', 'completingCard'].includes(sale.state as string)) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(sale).toMatchObject({ state: 'approved', autoCapture: false, currency: 'EUR' })
    const tipped = await call('adjustTip', { id, tipMinor: 500 })
    expect(tipped.ok, JSON.stringify(tipped)).toBe(true)
  }, 30_000)
})

/**
 * First-run setup: checks the form, and only when every field is right stores the signing key in
 * the keychain, writes the configuration, makes the first manager, then runs the terminal's checks.
 * The key is never written to the file, the log or the answer: only its key check value is.
 */
import { configSchema, type AgentConfig } from '../config'
import { storeSigningKey } from '../gateway'
import { keychainWords, type SecretStore } from '../keychain'
import type { Logger } from '../log'
import type { Operators } from '../operators'
import { PosError } from '../../src-shared/errors'
import type { SetupAnswer, SetupCheck, SetupForm, SetupState } from '../../src-shared/setup-form'
import { isCompleteProduction, readConfigObject, writeConfigFile } from './config-file'
import { plainCheck, type CheckFinding } from './plain-checks'
import { checkForm, configFromForm } from './setup-form'

/** What setup tells the audit trail (the door and the way in are the writer's: setup). */
export interface SetupAuditEntry {
  action: string
  actor?: string | undefined
  subject?: string | undefined
  ok: boolean
  detail?: string | undefined
}

export interface FirstRunSetupDeps {
  configFile: string
  secrets: SecretStore
  /** Asks the OS keychain again (after the fix was applied), for "Check again" on the setup page. */
  reopenSecrets?: () => Promise<SecretStore>
  operators: Operators
  logger: Logger
  /** The doctor's checks for a configuration and its key, in the doctor's words. */
  checks: (config: AgentConfig, signingKey: string) => Promise<CheckFinding[]>
  /** How to start the agent once set up, as the manager types it. */
  startCommand: string
  /** The journal's audit trail (its one writer, src-main/service, with setup as the door): what setup changed, and who approved it. */
  audit?: { record(entry: SetupAuditEntry): unknown }
}

export class FirstRunSetup {
  private secrets: SecretStore

  constructor(private readonly deps: FirstRunSetupDeps) {
    this.secrets = deps.secrets
  }

  /** The state, with the keychain asked again when it did not answer before (its fix may be applied now). */
  async freshState(): Promise<SetupState> {
    if (this.secrets.kind !== 'os-keychain' && this.deps.reopenSecrets) this.secrets = await this.deps.reopenSecrets()
    return this.state()
  }

  private record(entry: SetupAuditEntry): void {
    this.deps.audit?.record(entry)
  }

  state(): SetupState {
    const existing = readConfigObject(this.deps.configFile)
    const host = (existing.host ?? {}) as Record<string, unknown>
    const merchant = (existing.merchant ?? {}) as Record<string, unknown>
    const address = Array.isArray(merchant.storeAddress) ? (merchant.storeAddress as unknown[]) : []
    const values = Object.fromEntries(
      Object.entries({
        offlineBaseUrl: host.offlineBaseUrl,
        baseUrl: host.baseUrl,
        aid: host.aid,
        caFile: host.caFile,
        storeId: merchant.storeId,
        terminalId: merchant.terminalId,
        merchantId: merchant.merchantId,
        storeName: merchant.storeName,
        storeAddress1: address[0],
        storeAddress2: address[1],
        storeAddress3: address[2],
        currency: existing.currency,
      }).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    )
    return {
      needsFirstManager: this.deps.operators.list().length === 0,
      needsApproval: isCompleteProduction(this.deps.configFile),
      values,
      configFile: this.deps.configFile,
      keychain: keychainState(this.secrets),
    }
  }

  async submit(form: SetupForm): Promise<SetupAnswer> {
    const { operators, logger, configFile } = this.deps
    const state = this.state()
    const raw = configFromForm(form, readConfigObject(configFile))
    const problems = checkForm(form, raw, { firstManager: state.needsFirstManager, approval: state.needsApproval })
    if (Object.keys(problems).length > 0) return { ok: false, problems }
    let approver: string | undefined
    if (state.needsApproval) {
      try {
        approver = (await operators.approve({ operatorId: (form.approverId ?? '').trim(), pin: form.approverPin ?? '' })).id
      } catch (error) {
        const code = error instanceof PosError ? error.code : 'INTERNAL'
        this.record({ action: 'approval', subject: 'setup', actor: (form.approverId ?? '').trim() || undefined, ok: false, detail: code })
        const locked = error instanceof PosError && error.code === 'OPERATOR_LOCKED'
        return {
          ok: false,
          problems: {
            approverPin: locked
              ? 'This manager is locked after too many wrong PINs. Wait 15 minutes and try again.'
              : 'This number and PIN are not a manager of this terminal. Nothing was changed.',
          },
        }
      }
    }
    if (this.secrets.kind !== 'os-keychain') {
      const keychain = keychainState(this.secrets)
      return {
        ok: false,
        problems: {
          form: `This computer has no working keychain to keep the signing key in (${keychain.text}). Nothing was changed.${keychain.fix ? ` To fix it: ${keychain.fix}` : ''}`,
        },
      }
    }
    const config = configSchema.parse(raw)
    const signingKey = form.signingKey ?? ''
    const keyCheckValue = await storeSigningKey(this.secrets, config.host.aid, signingKey)
    writeConfigFile(configFile, raw)
    const firstManager = (form.managerId ?? '').trim()
    if (state.needsFirstManager)
      await operators.add({ operatorId: firstManager, name: (form.managerName ?? '').trim(), pin: form.managerPin ?? '', role: 'manager' })
    const actor = approver ?? (state.needsFirstManager ? firstManager : undefined)
    this.record({ action: 'setSigningKey', subject: config.host.aid, actor, ok: true, detail: `key check value ${keyCheckValue}` })
    this.record({ action: 'configChanged', subject: configFile, actor, ok: true, detail: state.needsApproval ? 'replaced' : 'first' })
    if (state.needsFirstManager)
      this.record({ action: 'addOperator', subject: firstManager, actor: firstManager, ok: true, detail: 'first manager' })
    logger.info({ configFile, aid: config.host.aid, keyCheckValue, firstManager: state.needsFirstManager }, 'setup saved the configuration')
    const checks: SetupCheck[] = (await this.deps.checks(config, signingKey)).map(plainCheck)
    return {
      ok: true,
      keyCheckValue,
      configFile,
      checks,
      ready: !checks.some((c) => c.level === 'fail'),
      startCommand: this.deps.startCommand,
    }
  }
}

/** The keychain for a production terminal, in the doctor's words. */
function keychainState(secrets: SecretStore): SetupState['keychain'] {
  const words = keychainWords(secrets, 'production')
  return { ok: words.ok, text: words.text, ...(!words.ok && words.fix ? { fix: words.fix } : {}) }
}

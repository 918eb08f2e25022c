/**
 * First-run setup: checks the form, and only when every field is right stores the signing key in
 * the keychain, writes the configuration, makes the first manager, then runs the terminal's checks.
 * What the service does (the key, a manager's approval, the operators) it asks the owner's service
 * for as the `setup` door: the same access rows, handlers and audit records as everywhere else.
 * The key is never written to the file, the log or the answer: only its key check value is.
 */
import { configSchema, type AgentConfig } from '../config'
import { keychainWords, type SecretStore } from '../keychain'
import type { Logger } from '../log'
import { SETUP, type OwnerService } from '../service'
import { PosError } from '../../src-shared/errors'
import type { SetupAnswer, SetupCheck, SetupForm, SetupState } from '../../src-shared/setup-form'
import { readConfigObject, writeConfigFile } from './config-file'
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
  /** The owner's service over this terminal's journal, storing keys in `secrets` for acquirer `aid`. */
  service: (secrets: SecretStore, aid?: string) => Pick<OwnerService, 'call'>
  logger: Logger
  /** The doctor's checks for a configuration and its key, in the doctor's words. */
  checks: (config: AgentConfig, signingKey: string) => Promise<CheckFinding[]>
  /** How to start the agent once set up, as the manager types it. */
  startCommand: string
  /** The journal's audit trail (its one writer, src-main/service, with setup as the door): the configuration setup wrote. */
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

  /** The setup form's state. A change needs a manager's approval once the terminal has a manager (the key's access row). */
  async state(): Promise<SetupState> {
    const operators = await this.deps.service(this.secrets).call(SETUP, 'listOperators', {})
    return {
      needsFirstManager: operators.length === 0,
      needsApproval: operators.some((o) => o.role === 'manager' && !o.disabled),
      values: this.values(),
      configFile: this.deps.configFile,
      keychain: keychainState(this.secrets),
    }
  }

  private record(entry: SetupAuditEntry): void {
    this.deps.audit?.record(entry)
  }

  /** The configuration's values as the form shows them. */
  private values(): Record<string, string> {
    const existing = readConfigObject(this.deps.configFile)
    const host = (existing.host ?? {}) as Record<string, unknown>
    const merchant = (existing.merchant ?? {}) as Record<string, unknown>
    const address = Array.isArray(merchant.storeAddress) ? (merchant.storeAddress as unknown[]) : []
    const values: Record<string, string> = Object.fromEntries(
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
    return values
  }

  async submit(form: SetupForm): Promise<SetupAnswer> {
    const { logger, configFile } = this.deps
    const state = await this.state()
    const raw = configFromForm(form, readConfigObject(configFile))
    const problems = checkForm(form, raw, { firstManager: state.needsFirstManager, approval: state.needsApproval })
    if (Object.keys(problems).length > 0) return { ok: false, problems }
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
    const service = this.deps.service(this.secrets, config.host.aid)
    const signingKey = form.signingKey ?? ''
    const approverId = (form.approverId ?? '').trim()
    const approval = state.needsApproval ? { approval: { operatorId: approverId, pin: form.approverPin ?? '' } } : {}
    let keyCheckValue: string
    try {
      keyCheckValue = (await service.call(SETUP, 'setSigningKey', { key: signingKey, ...approval })).kcv
    } catch (error) {
      const refused = approvalRefusal(error, state.needsApproval)
      if (!refused) throw error
      return { ok: false, problems: { approverPin: refused } }
    }
    writeConfigFile(configFile, raw)
    const firstManager = (form.managerId ?? '').trim()
    const actor = state.needsApproval ? approverId : state.needsFirstManager ? firstManager : undefined
    this.record({ action: 'configChanged', subject: configFile, actor, ok: true, detail: state.needsApproval ? 'replaced' : 'first' })
    if (state.needsFirstManager)
      await service.call(SETUP, 'addOperator', {
        operatorId: firstManager,
        name: (form.managerName ?? '').trim(),
        pin: form.managerPin ?? '',
        role: 'manager',
      })
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

/**
 * A manager's approval the service refused, in the manager's words (nothing was changed); undefined
 * for any other failure. A malformed number or PIN is refused by the contract before it is checked.
 */
function approvalRefusal(error: unknown, approvalSent: boolean): string | undefined {
  if (!approvalSent || !(error instanceof PosError)) return undefined
  if (error.code === 'OPERATOR_LOCKED') return 'This manager is locked after too many wrong PINs. Wait 15 minutes and try again.'
  if (error.code === 'TOO_MANY_TRIES') return 'Too many PINs were tried here. Wait a minute and try again.'
  if (['PIN_WRONG', 'MANAGER_REQUIRED', 'INVALID_REQUEST'].includes(error.code))
    return 'This number and PIN are not a manager of this terminal. Nothing was changed.'
  return undefined
}

/** The keychain for a production terminal, in the doctor's words. */
function keychainState(secrets: SecretStore): SetupState['keychain'] {
  const words = keychainWords(secrets, 'production')
  return { ok: words.ok, text: words.text, ...(!words.ok && words.fix ? { fix: words.fix } : {}) }
}

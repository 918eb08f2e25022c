/**
 * First-run setup's form, as the setup screen sends it and the agent answers it: the fields, their
 * labels in plain words, and the answer (each bad field with what to do, or the checks' results).
 */
export const SETUP_FIELDS = [
  'offlineBaseUrl',
  'baseUrl',
  'aid',
  'storeId',
  'terminalId',
  'merchantId',
  'storeName',
  'storeAddress1',
  'storeAddress2',
  'storeAddress3',
  'currency',
  'signingKey',
  'caFile',
  'managerId',
  'managerName',
  'managerPin',
  'approverId',
  'approverPin',
] as const

export type SetupField = (typeof SETUP_FIELDS)[number]
export type SetupForm = Partial<Record<SetupField, string>>

/** Where a problem belongs: one field, or the form as a whole. */
export type SetupProblems = Partial<Record<SetupField | 'form', string>>

/** What a check looked at; `other` for a check the setup page has no plain words for yet. */
export type SetupCheckId = 'connection' | 'security' | 'clock' | 'signature' | 'reader' | 'printer' | 'other'

/** One check's result: a headline and a next step in plain words, and the technical words for IT support. */
export interface SetupCheck {
  id: SetupCheckId
  level: 'ok' | 'warn' | 'fail'
  area: string
  text: string
  fix?: string
  detail: string
}

export interface SetupState {
  /** No operator yet: the first manager's number, name and PIN are asked for. */
  needsFirstManager: boolean
  /** A complete production configuration is there: replacing it needs a manager's number and PIN. */
  needsApproval: boolean
  /** What the current configuration file holds (never the key). */
  values: SetupForm
  configFile: string
  /**
   * The keychain the signing key goes into, checked before anything is typed: whether it answers, and
   * if not what is wrong and the fix for this computer (the same words as `pos-agent doctor`).
   */
  keychain: { ok: boolean; text: string; fix?: string }
}

export type SetupAnswer =
  | { ok: false; problems: SetupProblems }
  | { ok: true; keyCheckValue: string; configFile: string; checks: SetupCheck[]; ready: boolean; startCommand: string }

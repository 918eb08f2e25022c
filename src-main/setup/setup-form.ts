/**
 * From the setup form to a configuration: the same zod schema the loader uses (src-main/config)
 * decides, and each problem is put back on the field it came from, in plain words.
 */
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { configSchema } from '../config'
import { validateSigningKey } from '../../src-shared/signing-key'
import type { SetupField, SetupForm, SetupProblems } from '../../src-shared/setup-form'

/** What to tell the manager when the schema refuses a field. */
const FIELD_WORDS: Readonly<Partial<Record<SetupField, string>>> = {
  offlineBaseUrl: 'Enter the address your acquirer gave you for offline payments. It starts with https://',
  baseUrl: 'Enter the address your acquirer gave you for other payments. It starts with https://',
  aid: 'Enter the acquirer id your acquirer gave you (1 to 64 characters).',
  storeId: 'Enter the store id (1 to 64 characters).',
  terminalId: 'Enter the terminal id: 1 to 40 letters, digits, "-", "_" or ".", no spaces.',
  merchantId: 'Enter the merchant id (1 to 64 characters).',
  storeName: 'The store name is at most 64 characters.',
  storeAddress1: 'An address line is at most 48 characters.',
  storeAddress2: 'An address line is at most 48 characters.',
  storeAddress3: 'An address line is at most 48 characters.',
  currency: 'Enter a currency code of three letters, such as USD or EUR.',
}

const OPERATOR_NUMBER = /^[A-Za-z0-9]{1,16}$/
const PIN = /^\d{4,8}$/

const text = (form: SetupForm, field: SetupField): string => (form[field] ?? '').trim()

/** The configuration the form describes, over what the file already holds (device, printer... stay). */
export function configFromForm(form: SetupForm, existing: Record<string, unknown> = {}): Record<string, unknown> {
  const host = { ...(existing.host as Record<string, unknown> | undefined) }
  const merchant = { ...(existing.merchant as Record<string, unknown> | undefined) }
  Object.assign(host, { offlineBaseUrl: text(form, 'offlineBaseUrl'), baseUrl: text(form, 'baseUrl'), aid: text(form, 'aid') })
  if (text(form, 'caFile')) host.caFile = text(form, 'caFile')
  else delete host.caFile
  Object.assign(merchant, {
    storeId: text(form, 'storeId'),
    terminalId: text(form, 'terminalId'),
    merchantId: text(form, 'merchantId'),
    storeAddress: (['storeAddress1', 'storeAddress2', 'storeAddress3'] as const).map((f) => text(form, f)).filter((l) => l !== ''),
  })
  if (text(form, 'storeName')) merchant.storeName = text(form, 'storeName')
  else delete merchant.storeName
  return { ...existing, mode: 'production', host, merchant, currency: text(form, 'currency').toUpperCase() }
}

/** Every problem of the form, none of them acted on. */
export function checkForm(
  form: SetupForm,
  config: Record<string, unknown>,
  asks: { firstManager: boolean; approval: boolean },
): SetupProblems {
  const problems: SetupProblems = {}
  const parsed = configSchema.safeParse(config)
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String))
      const words = field === 'form' ? `${issue.path.join('.')}: ${issue.message}` : (FIELD_WORDS[field] ?? issue.message)
      problems[field] ??= words
    }
  const caFile = text(form, 'caFile')
  if (caFile && !isAbsolute(caFile)) problems.caFile = 'Enter the full path of the CA file, starting with /.'
  else if (caFile && !(existsSync(caFile) && readFileSync(caFile, 'utf8').includes('-----BEGIN CERTIFICATE-----')))
    problems.caFile = 'There is no certificate file at this path. Check the path, or leave it empty.'
  const keyProblem = validateSigningKey(form.signingKey ?? '')
  if (keyProblem) problems.signingKey = 'Enter the signing key from your acquirer: exactly 32 characters, no spaces.'
  if (asks.firstManager) {
    if (!OPERATOR_NUMBER.test(text(form, 'managerId'))) problems.managerId = 'Enter a manager number: 1 to 16 letters or digits.'
    const name = text(form, 'managerName')
    if (name.length === 0 || name.length > 64) problems.managerName = "Enter the manager's name (1 to 64 characters)."
    if (!PIN.test(form.managerPin ?? '')) problems.managerPin = 'Enter a PIN of 4 to 8 digits.'
  }
  if (asks.approval) {
    if (!text(form, 'approverId')) problems.approverId = 'This terminal is set up already. Enter a manager number to change it.'
    if (!form.approverPin) problems.approverPin = "Enter the manager's PIN to change the settings."
  }
  return problems
}

function fieldOf(path: string[]): SetupField | 'form' {
  const [top, name, index] = path
  if (top === 'currency') return 'currency'
  if (top === 'host' && (name === 'offlineBaseUrl' || name === 'baseUrl' || name === 'aid' || name === 'caFile')) return name
  if (top === 'merchant') {
    if (name === 'storeAddress') return index === undefined ? 'storeAddress1' : (`storeAddress${Number(index) + 1}` as SetupField)
    if (name === 'storeId' || name === 'terminalId' || name === 'merchantId' || name === 'storeName') return name
  }
  return 'form'
}

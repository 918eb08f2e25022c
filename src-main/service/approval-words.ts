/**
 * What a manager approves, in words: a manager types a PIN only after reading what it lets happen
 * (the return's amount and card, the sale it comes from; the person whose PIN changes; the batch's
 * totals at a close). The same sentence is what the audit trail keeps for the approval
 * (authorise.ts), so what was shown and what was recorded cannot differ. Reads only: masked card,
 * no PIN, no key.
 */
import { OPERATIONS, isOperationName, type ApprovalRequestView, type OperationName, type SaleView } from '../../src-shared/contract'
import { PosError } from '../../src-shared/errors'
import { formatAmount, isKnownCurrency } from '../../src-shared/money'
import type { Handlers, ServiceParts } from './service-parts'

type Fact = ApprovalRequestView['facts'][number]

/** The describeApproval operation: the words for a request before it is approved. */
export function approvalWordsHandlers(parts: ServiceParts): Handlers<'describeApproval'> {
  return {
    describeApproval: (r) => {
      const name = r.operation
      if (!isOperationName(name)) throw new PosError('UNKNOWN_OPERATION', `no operation "${name}"`)
      if (OPERATIONS[name].access.manager === 'never') throw new PosError('INVALID_REQUEST', `${name} needs no manager's approval`)
      const parsed = OPERATIONS[name].request.safeParse(r.request)
      if (!parsed.success)
        throw new PosError('INVALID_REQUEST', `the request to describe is not a valid ${name}: ${parsed.error.issues[0]?.message ?? ''}`)
      return approvalWords(parts, name, parsed.data)
    },
  }
}

/** What `request` of `operation` does, as one sentence and fact by fact. Never throws for a valid request. */
export function approvalWords(parts: ServiceParts, operation: OperationName, request: Record<string, unknown>): ApprovalRequestView {
  const facts = factsOf(parts, operation, request)
  const words = facts.map((fact) => (fact.label === 'Approve' ? fact.value : `${fact.label}: ${fact.value}`)).join('; ')
  return { operation, words, facts }
}

function factsOf(parts: ServiceParts, operation: OperationName, request: Record<string, unknown>): Fact[] {
  const approve = (value: string): Fact => ({ label: 'Approve', value })
  const sale = typeof request.id === 'string' ? parts.deps.engine.txn.reads.get(request.id) : undefined
  switch (operation) {
    case 'startReturn': {
      const currency = typeof request.currency === 'string' ? request.currency : parts.deps.info.currency
      const amount = money(Number(request.amountMinor), currency)
      const original = typeof request.originalId === 'string' ? parts.deps.engine.txn.reads.get(request.originalId) : undefined
      if (!original) return [approve(`A return of ${amount} without a sale, to the card the customer presents`), fact('Amount', amount)]
      return [
        approve(`A return of ${amount} to ${cardOf(original)}`),
        fact('Amount', amount),
        fact('Card', cardOf(original)),
        fact('From the sale', saleWords(original)),
        fact('Left to return on it', money(original.returnableMinor ?? 0, original.currency)),
      ]
    }
    case 'voidSale':
      return sale ? [approve(`Voiding the sale of ${total(sale)}`), ...saleFacts(sale)] : [approve(`Voiding sale ${String(request.id)}`)]
    case 'adjustTip': {
      const tip = sale ? money(Number(request.tipMinor), sale.currency) : String(request.tipMinor)
      return sale
        ? [approve(`A tip of ${tip}, over the usual limit`), fact('Tip', tip), ...saleFacts(sale)]
        : [approve(`A tip on sale ${String(request.id)}`)]
    }
    case 'retryAttention':
      return sale
        ? [approve(`Sending the sale of ${total(sale)} to the bank again`), ...saleFacts(sale)]
        : [approve('Sending a sale again')]
    case 'acknowledgeAttention':
      return sale
        ? [approve(`Recording that the ${total(sale)} of this sale will not be received`), ...saleFacts(sale)]
        : [approve('Recording that a payment will not be received')]
    case 'closeDay':
      return closeFacts(parts, request.managerOverride === true)
    case 'exportDay':
      return [
        approve(`Exporting ${request.batch === undefined ? 'the open batch' : `batch ${String(request.batch)}`} with the audit trail`),
      ]
    case 'auditTrail':
      return [approve(`Reading the audit trail${request.batch === undefined ? '' : ` of batch ${String(request.batch)}`}`)]
    case 'addOperator':
      return [
        approve(`Adding ${String(request.name)} (number ${String(request.operatorId)}) as a ${String(request.role)}`),
        fact('Name', String(request.name)),
        fact('Number', String(request.operatorId)),
        fact('Role', String(request.role)),
      ]
    case 'setOperatorPin':
      return [approve(`A new PIN for ${personOf(parts, request.operatorId)}`)]
    case 'disableOperator':
      return [approve(`Disabling ${personOf(parts, request.operatorId)}: they can no longer sign in`)]
    case 'unlockOperator':
      return [approve(`Letting ${personOf(parts, request.operatorId)} sign in again (same PIN)`)]
    case 'setSigningKey':
      return [approve("Replacing the key that signs this terminal's messages to the bank")]
    case 'createToken':
      return [approve(`A new integrator token for "${String(request.name)}"`)]
    case 'revokeToken': {
      const token = parts.deps.tokens?.list().find((t) => t.id === request.id)
      return [approve(`Revoking the integrator token ${token ? `"${token.name}"` : String(request.id)} and closing what it opened`)]
    }
    case 'revokeWindow':
      return [approve(`Closing window ${String(request.id)} and every window opened from it`)]
    default:
      return [approve(operation)]
  }
}

function fact(label: string, value: string): Fact {
  return { label, value }
}

/** The close's money: charged, returned, tips, the net the bank confirmed; apart, what is not at the bank. */
function closeFacts(parts: ServiceParts, override: boolean): Fact[] {
  const report = parts.deps.engine.txn.day.report()
  const charged: Record<string, number> = {}
  for (const row of report.totals) charged[row.currency] = (charged[row.currency] ?? 0) + row.amountMinor + row.tipMinor
  const each = (record: Readonly<Record<string, number>>) =>
    Object.entries(record)
      .filter(([, minor]) => minor !== 0)
      .map(([currency, minor]) => money(minor, currency))
      .join(', ') || 'none'
  const facts = [
    { label: 'Approve', value: `Closing batch ${report.batch.number}${override ? ' past the sales that need a manager' : ''}` },
    fact('Charged (with tips)', each(charged)),
    fact('Returned', each(report.returnsMinor)),
    fact('Tips', each(report.tipsMinor)),
    fact('Net confirmed by the bank', each(report.confirmedNetMinor)),
  ]
  if (report.counts.stored > 0) facts.push(fact(`Not at the bank yet (${report.counts.stored})`, each(report.storedMinor)))
  if (report.counts.notReceived > 0) facts.push(fact(`Never received (${report.counts.notReceived})`, each(report.notReceivedMinor)))
  return facts
}

function saleFacts(sale: SaleView): Fact[] {
  return [fact('Sale', saleWords(sale)), fact('Card', cardOf(sale))]
}

/** "USD 1,500.00 at 2026-11-28 09:49": the sale as the cashier finds it in the list. */
function saleWords(sale: SaleView): string {
  return `${total(sale)} at ${localDateTime(sale.createdAt)}`
}

function total(sale: SaleView): string {
  return money(sale.amountMinor + sale.tipMinor, sale.currency)
}

function cardOf(sale: SaleView): string {
  return [sale.brand, sale.maskedPan].filter(Boolean).join(' ') || 'the card it was paid with'
}

function personOf(parts: ServiceParts, operatorId: unknown): string {
  const person = parts.operators.list().find((o) => o.id === operatorId)
  return person ? `${person.name} (number ${person.id}, ${person.role})` : `operator ${String(operatorId)}`
}

/** "USD 1,234.50", "-USD 12.00": thousands grouped, as the screens write amounts. */
function money(minor: number, currency: string): string {
  if (!isKnownCurrency(currency) || !Number.isSafeInteger(minor)) return `${currency} ${minor} (minor units)`
  const [whole = '', fraction] = formatAmount(Math.abs(minor), currency).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${minor < 0 ? '-' : ''}${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`
}

function localDateTime(ms: number): string {
  const at = new Date(ms)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`
}

/**
 * Who may start a return, as the one access check decides it (src-main/service/access.ts over the
 * contract's row): on a terminal with a manager, a return is a manager's at the counter and over the
 * local API; over nexo, a POS whose token has the refund scope approves it with its own staff rules,
 * and a token without that scope may not.
 */
import { describe, expect, it } from 'vitest'
import { decide, type Caller } from '../../../src-main/service'

const withManager = { operators: true, managerRuleApplies: true }
const token = (scopes: Array<'read' | 'sell' | 'refund' | 'admin'>) => ({ id: 't1', name: 'POS', scopes })

describe('startReturn, once the terminal has a manager', () => {
  it('over nexo with the refund scope: allowed, the POS approves', () => {
    const caller: Caller = { door: 'nexo', token: token(['read', 'sell', 'refund']), saleId: 'POS-1' }
    expect(decide(caller, 'startReturn', withManager)).toEqual({ allowed: true, manager: 'notNeeded' })
  })

  it('over nexo without it: refused, whatever else the token may do', () => {
    const caller: Caller = { door: 'nexo', token: token(['read', 'sell']), saleId: 'POS-1' }
    expect(decide(caller, 'startReturn', withManager)).toMatchObject({ allowed: false, code: 'FORBIDDEN' })
  })

  it('over the local API, even with the refund scope: a manager approves this request, by a proof (no PIN from a token)', () => {
    const caller: Caller = { door: 'pos', token: token(['refund']) }
    expect(decide(caller, 'startReturn', withManager)).toEqual({ allowed: true, manager: 'approvalNeeded', pinApproves: false })
  })

  it("at the cashier window: a manager's number and PIN with the request approve it", () => {
    const caller: Caller = { door: 'counter', session: 'S1' }
    const facts = { ...withManager, signedIn: { id: '17', role: 'cashier' as const } }
    expect(decide(caller, 'startReturn', facts)).toEqual({ allowed: true, manager: 'approvalNeeded', pinApproves: true })
  })

  it('over nexo, a void of an old sale is still a manager rule the POS does not lift', () => {
    const caller: Caller = { door: 'nexo', token: token(['read', 'sell', 'refund']), saleId: 'POS-1' }
    expect(decide(caller, 'voidSale', withManager)).toEqual({ allowed: true, manager: 'approvalNeeded', pinApproves: false })
  })
})

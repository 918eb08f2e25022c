/**
 * The store copy's class in the words a cashier or manager reads (durability.ts `copyPanelWords`,
 * `durableRequiredWords`; the catalogue's STORE_COPY_BUFFERED; the declined sale's reason): where the
 * copies are and what to do, never a setting or a state name.
 */
import { describe, expect, it } from 'vitest'
import { wordsOf } from '../../../src-shared/errors'
import { SALE_REASONS } from '../../../src-shared/sale/sale-reasons'
import { classifyDurability, copyPanelWords, durableRequiredWords } from '../../../src-main/store'

const internal = /synced|buffered|requireDurable|sync_interval|replicas|JetStream|STORE_/

describe('the store copy in plain words', () => {
  it('says three servers, one server on disk, or in memory with what a power cut loses', () => {
    const three = copyPanelWords(classifyDurability({ serverVersion: '2.9.10', streamReplicas: 3, syncAlwaysStated: false }))
    const disk = copyPanelWords(classifyDurability({ serverVersion: '2.10.22', streamReplicas: 1, syncAlwaysStated: true }))
    const memory = copyPanelWords(classifyDurability({ serverVersion: '2.9.10', streamReplicas: 1, syncAlwaysStated: true }))
    expect(three).toBe('Copies: kept on three servers — one of them can lose power without losing any')
    expect(disk).toBe('Copies: on disk at the store server')
    expect(memory).toBe('Copies: held in memory on the store server — a power cut there can lose the last two minutes')
    expect(copyPanelWords(undefined)).toMatch(/^Copies: the store server has not said yet/)
    for (const words of [three, disk, memory]) expect(words).not.toMatch(internal)
  })

  it('a refused offline approval tells the cashier what to do: the bank later, or another payment', () => {
    expect(wordsOf('STORE_COPY_BUFFERED')).toMatch(/can't be approved offline now: the store's copy isn't safe on disk/)
    expect(wordsOf('STORE_COPY_BUFFERED')).toMatch(/take another payment or try again when it is back/)
    expect(SALE_REASONS.noStoreCopy).toMatch(/can't be approved offline now/)
    expect(SALE_REASONS.noStoreCopy).toMatch(/try again when the bank is back, or take another payment/)
    const alarm = durableRequiredWords(classifyDurability({ serverVersion: '2.9.10', streamReplicas: 1, syncAlwaysStated: false }))
    expect(alarm).toMatch(/try again when the bank is back, or take another payment/)
    for (const words of [wordsOf('STORE_COPY_BUFFERED'), SALE_REASONS.noStoreCopy]) expect(words).not.toMatch(internal)
  })
})

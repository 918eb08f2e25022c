import { describe, expect, it } from 'vitest'
import {
  aesInitialKey,
  aesKeyTypeOf,
  aesIntermediateKey,
  aesKsnCounter,
  aesPinKey,
  derivationData,
  nextAesCounter,
} from '../../../../src-main/device/card-data/dukpt-aes'
import { DukptError } from '../../../../src-main/device/card-data/dukpt-tdes'
import { decipherPinBlockIso4, encipherPinBlockIso4 } from '../../../../src-main/device/card-data/pin-block'

const hex = (text: string): Buffer => Buffer.from(text, 'hex')
const up = (bytes: Buffer): string => bytes.toString('hex').toUpperCase()

// ANSI X9.24-3:2017 B.1 and the AES-128 supplement (docs/card-reader.md §4.4; openemv/dukpt, moov-io/dukpt).
const BDK = hex('FEDCBA9876543210F1F1F1F1F1F1F1F1')
const IKID = hex('1234567890123456')
const IK = '1273671EA26AC29AFA4D1084127652A1'

describe('AES DUKPT golden vectors (X9.24-3:2017)', () => {
  it('uses the published derivation data for the initial key', () => {
    expect(up(derivationData('initialKey', IKID))).toBe('01018001000200801234567890123456')
  })

  it('derives the initial key from the BDK and Initial Key ID', () => {
    expect(up(aesInitialKey(BDK, IKID))).toBe(IK)
  })

  it.each([
    ['123456789012345600000001', '4F21B565BAD9835E112B6465635EAE44'],
    ['123456789012345600000002', '2F34D68DE10F68D38091A73B9E7C437C'],
  ])('KSN %s: intermediate derivation key %s', (ksn, key) => {
    expect(up(aesIntermediateKey(hex(IK), hex(ksn)))).toBe(key)
  })

  it.each([
    ['123456789012345600000001', 'AF8CB133A78F8DC2D1359F18527593FB'],
    ['123456789012345600000002', 'D30BDC73EC9714B000BEC66BDB7B6D09'],
  ])('KSN %s: AES-128 PIN encryption key %s', (ksn, key) => {
    expect(up(aesPinKey(hex(IK), hex(ksn)))).toBe(key)
  })
})

describe('AES DUKPT counter', () => {
  it('reads counters above 2^31 as unsigned', () => {
    expect(aesKsnCounter(hex('1234567890123456FFFF0000'))).toBe(0xffff0000)
  })

  it('skips counters with more than 16 one-bits and reports exhaustion past 2^32 - 1', () => {
    expect(nextAesCounter(1)).toBe(2)
    expect(nextAesCounter(0x80000000)).toBe(0x80000001)
    expect(nextAesCounter(0xffff)).toBe(0x10000)
    expect(nextAesCounter(0x7fff8000)).toBe(0x80000000)
    expect(() => nextAesCounter(0xffff0000)).toThrow(expect.objectContaining({ code: 'exhausted' }))
  })

  it('derives keys for counters with the top bit set (unsigned arithmetic throughout)', () => {
    const high = aesPinKey(hex(IK), hex('123456789012345680000000'))
    expect(high).toHaveLength(16)
    expect(up(high)).not.toBe(up(aesPinKey(hex(IK), hex('123456789012345600000000'))))
  })

  it('takes 16-, 24- and 32-byte keys and 12-byte KSNs only, with typed errors', () => {
    expect(() => aesInitialKey(Buffer.alloc(20), IKID)).toThrow(DukptError)
    expect(() => aesInitialKey(Buffer.alloc(8), IKID)).toThrow(expect.objectContaining({ code: 'badKey' }))
    expect(() => aesPinKey(hex(IK), hex('1234567890123456000001'))).toThrow(expect.objectContaining({ code: 'badKsn' }))
  })

  it('refuses a working key stronger than the initial key (an AES-256 PIN key from an AES-128 BDK)', () => {
    expect(() => aesPinKey(hex(IK), hex('123456789012345600000001'), 'aes256')).toThrow(expect.objectContaining({ code: 'badKey' }))
  })
})

// ANSI X9.24-3:2017 Supplement "Test Vectors for AES-256 BDK" (docs/card-reader.md §4.4): initial key,
// intermediate derivation keys and AES-128 PIN keys of counters 1-8 (bottom of p.7), the rollover
// counters (middle of p.10), the last four counters (p.12), AES-256 PIN keys (middle of p.13). As
// reproduced by openemv/dukpt test/dukpt_aes256_test.c.
const BDK256 = hex('FEDCBA9876543210F1F1F1F1F1F1F1F1FEDCBA9876543210F1F1F1F1F1F1F1F1')
const IK256 = 'CE9CE0C101D1138F97FB6CAD4DF045A7083D4EAE2D35A31789D01CCF0949550F'
const KSN = (counter: string): Buffer => hex(`1234567890123456${counter}`)

describe('AES-256 DUKPT golden vectors (X9.24-3:2017 supplement, AES-256 BDK)', () => {
  it('derives the AES-256 initial key (two derivation blocks) from the BDK and Initial Key ID', () => {
    expect(up(derivationData('initialKey', IKID, 'aes256', 2))).toBe('01028001000401001234567890123456')
    expect(up(aesInitialKey(BDK256, IKID))).toBe(IK256)
  })

  it.each([
    ['00000001', '54AC2B32B145EA4A554CB8BC44B17467063A799856B1CCC2A138D36E8DBF78B3', '09C9C432966811D6B2C3336BAC1B1202'],
    ['00000002', '5DD5A0253842BBBE1D7C0DA27021412C6F1FAB53FB928DEAE56DA06090A9DE97', 'D632226A80795D13A80AFE66A3E97B01'],
    ['00000003', '8EEEF7C464AE415BB1D73FAED21993CD669F7999092A579EC6DD3CC680C65171', 'C2CBD3D766B16F9F82F4EE3F74478918'],
    ['00000004', 'C18CBED570B3B89ECADA7CEC9C224CD5A86ECF3DE377D3EFAB720F8C4D76B9D0', '58A3779C1E24B3EDAF068609E7E56D59'],
    ['00000005', '6B3C3C93307151C25DC2309456F01C5C3108DAD571C321899A9B7E0C009FD2EB', '97504C8BB0FD4D4A88D605143BF00025'],
    ['00000006', 'B8BB61AE3E2D5CD8C699E0C578FB2C7B89B0C0CF02DBAB60864D8049C986C844', 'BF281141609E6CAE7DF10DFA47A8D03D'],
    ['00000007', '88D0ACA287B3066F5DE0C93396337D4C2DA8D92C1F720A576D62CEB4C979E01E', 'B7C6BB187134E9D429C3E8B7CCBD8477'],
    ['00000008', '20A796D5077D51B8E7613893A4F095B134E02917DC84BD391F3661D0873FF308', '53C1C60A65532313141A102AD720E967'],
  ])('counter %s: intermediate derivation key and AES-128 PIN key (p.7)', (counter, intermediate, pinKey) => {
    expect(up(aesIntermediateKey(hex(IK256), KSN(counter)))).toBe(intermediate)
    expect(up(aesPinKey(hex(IK256), KSN(counter)))).toBe(pinKey)
  })

  it.each([
    ['00000001', '8C1AB7BEE973829E30242E0BBBDD4946D540C98FC1B5BDCF94790001A23FD502'],
    ['00000002', '3583D6CD02FC38822CC71A8D7678E04F4A8556335E6CC66863D3DADC5AEE2C62'],
    ['00000003', '96A1AB5D37CB7CF81DDE64F66C46E0389B833E7AD5F4E44C791F04FAFDA6DA0E'],
    ['00000004', '420AA584BF215C4777E93009B56D08DE80687021D07ED96349FF71379CE5636D'],
    ['00000005', 'B1E9E3D918952E6E5F67917F0FE77060F865AE27DCAD5742DDF90F61453B98BA'],
    ['00000006', '8714EB94E3BFD3018EC99D0434D9C94F071AF2EEBF4332FB14F5179793AA582C'],
    ['00000007', '693C893A1E81D280302E0A47E7E634337B9A9B26E7CC6064D807E08FF911AFAC'],
    ['00000008', '173A45284262A3E292D86D08FD6DE9167963214450D1D48F6103BD2EB08E61B5'],
  ])('counter %s: AES-256 PIN encryption key (p.13)', (counter, pinKey) => {
    expect(up(aesPinKey(hex(IK256), KSN(counter), 'aes256'))).toBe(pinKey)
  })

  it.each([
    ['0001FFFE', 'A289508CBF1228452CD86AB77B15CB35577AC828C18BB66681E5A16D6C9CCED3'],
    ['00020000', 'D62DDA94A47D7DA5D763443B4ECB15EA8DD62E0E4F915958BA459591F8312E37'],
    ['00020001', '44110A1102748D4A3AC326F53D8CAC650212590CA7126D54546DDE0F20E89CEE'],
    ['FFFE2000', '4625EB06E4886D4AFCC9AE37ED4F4E4E1653C9E60E3F24742A87A26AA96AB7A6'],
    ['FFFE4000', 'FF20E1BB575539ACCB44E3111BE8757F83AE8549A2DD71B441A4A424F7FFD4B1'],
    ['FFFE8000', '630535C9C53E1EC6524016930B56F6728909C45403536B419AEBCB25B7351C07'],
    ['FFFF0000', '6D6DB7AAAE8B3EA90E57A39E4BBA71E173B21B446B30A78D64BFC6A8806C55EE'],
  ])('counter %s: intermediate derivation key (pp.10-12)', (counter, intermediate) => {
    expect(up(aesIntermediateKey(hex(IK256), KSN(counter)))).toBe(intermediate)
  })

  it('encrypts a format 4 PIN block under the AES-256 PIN key that decrypts with the published key', () => {
    const key = aesPinKey(hex(IK256), KSN('00000001'), 'aes256')
    const block = encipherPinBlockIso4(key, '1234', '4111111111111111')
    const published = hex('8C1AB7BEE973829E30242E0BBBDD4946D540C98FC1B5BDCF94790001A23FD502')
    expect(decipherPinBlockIso4(published, block, '4111111111111111')).toBe('1234')
  })
})

/*
 * AES-192: X9.24-3:2017 defines it (algorithm 0003, 192 bits, two derivation blocks cut to 24 bytes)
 * but its supplement publishes no AES-192 vectors. Cross-check only: the initial keys an independent
 * public implementation computes for one BDK per type (TheMineSec SoftPOS SDK example,
 * DukptAesHostUnitTest "derive initial key from bdk with aes 128, 192, 256").
 */
describe('AES-192 DUKPT (cross-checked, no published vectors)', () => {
  it.each([
    [16, '0E870691F56A670C438612AE868D668D'],
    [24, '662E213522EF22C20E65CA0FAB0C20C5340FCD7072FE3F54'],
    [32, '2E6C334F36E48FD78EE3A2DB4A691C549DE0CEE9419B4388BAD15F09CA7E76E7'],
  ])('a %i-byte BDK of F1 bytes, IKID 1122334455667788: initial key %s', (bytes, ik) => {
    expect(up(aesInitialKey(Buffer.alloc(bytes, 0xf1), hex('1122334455667788')))).toBe(ik)
  })

  it('keeps the 24-byte key type through intermediate keys and allows AES-128 and AES-192 PIN keys only', () => {
    const ik = aesInitialKey(Buffer.alloc(24, 0xf1), IKID)
    expect(aesKeyTypeOf(aesIntermediateKey(ik, KSN('00000003')))).toBe('aes192')
    expect(aesPinKey(ik, KSN('00000003'), 'aes192')).toHaveLength(24)
    expect(aesPinKey(ik, KSN('00000003'))).toHaveLength(16)
    expect(() => aesPinKey(ik, KSN('00000003'), 'aes256')).toThrow(expect.objectContaining({ code: 'badKey' }))
  })
})

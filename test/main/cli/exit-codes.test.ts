/** The command line's exit code for an error comes from its catalogue code (README "Exit codes"). */
import { describe, expect, it } from 'vitest'
import { PosError } from '../../../src-shared/errors'
import { EXIT, exitCodeOf } from '../../../src-main/cli/exit-codes'
import { ConfigError, MissingConfigurationError } from '../../../src-main/config'
import { SecretStoreUnavailableError } from '../../../src-main/keychain'

describe('exitCodeOf', () => {
  it('configuration problems exit 3, keychain and signing key problems 4, the rest 1', () => {
    expect(exitCodeOf(new ConfigError('bad'))).toBe(EXIT.config)
    expect(exitCodeOf(new MissingConfigurationError('/data', 'T1-1', 0))).toBe(EXIT.config)
    expect(exitCodeOf(new SecretStoreUnavailableError('failed', 'the OS keychain failed', 'unlock it'))).toBe(EXIT.keychain)
    expect(exitCodeOf(new PosError('NO_SIGNING_KEY', 'no key'))).toBe(EXIT.keychain)
    expect(exitCodeOf(new PosError('BAD_SIGNING_KEY', 'short'))).toBe(EXIT.keychain)
    expect(exitCodeOf(new PosError('JOURNAL_CORRUPT', 'damaged'))).toBe(EXIT.failure)
    expect(exitCodeOf(new Error('--port must be 0 to 65535'))).toBe(EXIT.failure)
  })
})

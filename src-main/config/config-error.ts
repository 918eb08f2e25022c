/** The configuration's errors: a file that cannot be used, or one that went missing over real sales. */
import { PosError } from '../../src-shared/errors'
import { agreeing, counted } from '../../src-shared/counted'

export class ConfigError extends PosError {
  override readonly name: string = 'ConfigError'
  declare readonly code: 'CONFIG_INVALID' | 'CONFIG_MISSING'

  constructor(message: string, code: 'CONFIG_INVALID' | 'CONFIG_MISSING' = 'CONFIG_INVALID') {
    super(code, message)
  }
}

/**
 * No configuration means training mode, but only over a data folder that holds no production
 * journal: a configuration file that went missing must not turn a terminal with stored payments
 * and pending reversals into a training terminal (they would wait forever, unseen).
 */
export class MissingConfigurationError extends ConfigError {
  constructor(dataDir: string, saleId: string, waitingItems: number) {
    const waiting =
      waitingItems > 0
        ? `; ${counted(waitingItems, 'stored payment or reversal', 'stored payments and reversals')} ${agreeing(waitingItems, 'is kept and waits', 'are kept and wait')} for it`
        : '; its sales are kept'
    super(
      `no configuration file was found, but ${dataDir} holds a production journal (sale ${saleId}): the configuration went missing${waiting}. ` +
        'Put the configuration back (--config, POS_AGENT_CONFIG, or the per-user config.json) and start again; training mode was not started.',
      'CONFIG_MISSING',
    )
  }
}

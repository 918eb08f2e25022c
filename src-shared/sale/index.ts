/** The sale's vocabulary: states and their classes, queue operations, tip states, the tip limit, origins. */
export * from './sale-states'
export * from './queue-operations'
export * from './tip-limit'
export * from './sale-origin'
export * from './sale-words'
export * from './reason-words'
export * from './sale-reasons'
export * from './cardholder-verification'

/** The operators domain's door: accounts, PINs (scrypt), sign-in with lockout, a manager's approval, shifts. */
export { LOCKOUT_MS, MAX_WRONG_PINS, Operators, type Credential, type NewOperator, type OperatorView } from './operators'
export { DEFAULT_PIN_COST, hashPin, pinMatches, scryptPinHasher, type PinHashCost, type PinHasher } from './pin-hash'
export { Shifts } from './shifts'

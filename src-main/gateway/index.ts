/**
 * The gateway domain's door: the host client and its outcomes, the operations and their request
 * bodies, request signing and the signing key kept in the keychain (docs/gateway.md).
 */
export { UndiciHostClient, type HostClient, type HostClientDeps, type HostEndpoint } from './gateway-client'
export {
  answerOf,
  answerWords,
  NOT_ANSWERED_WORDS,
  type GatewayAnswer,
  type GatewayOutcome,
  type HostAnswer,
  type OutcomeKind,
} from './outcome'
export { isOperationKind, OPERATION_KINDS, GATEWAY_OPERATIONS, parseOperationPath, type OperationKind } from './operations'
export { DATE_TIME_PATTERN, formatDateTime } from './headers'
export {
  checkRequestBody,
  maxAmountMinor,
  type CaptureBody,
  type MerchandiseCreditBody,
  type FieldProblem,
  type OfflineCancelBody,
  type OfflinePaymentBody,
  type OfflineReversalBody,
  type RequestBodies,
  type TipsBody,
} from './request-schemas'
export { isSignType, keyCheckValue, sign, SIGN_TYPES, stringToSign, validateSigningKey, verifySignature, type SignType } from './signer'
export { ensureTrainingKey, readSigningKey, storeSigningKey } from './signing-key'

/**
 * Compile-time proof, checked by `npm run typecheck`: every result schema (src-shared/contract/
 * result-schemas.ts, the source of the OpenAPI document) describes exactly its TypeScript interface.
 * Each pair must be assignable both ways: a field added, dropped, renamed, made optional or given
 * another type on either side fails the build.
 */
import type { z } from 'zod'
import type {
  AlarmView,
  AppInfo,
  BatchSummaryView,
  BatchView,
  DayReportView,
  DayTotalsView,
  DevicePrompt,
  DeviceStatusView,
  OperationResults,
  PosErrorView,
  PosEvent,
  PosStreamHeartbeat,
  PosStreamSnapshot,
  QueueItemView,
  QueueStatusView,
  SaleView,
  SettingsView,
} from '../../../src-shared/contract'
import type { NAMED_RESULT_SCHEMAS, RESULT_SCHEMAS } from '../../../src-shared/contract/result-schemas'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Schema<K extends keyof typeof NAMED_RESULT_SCHEMAS> = z.infer<(typeof NAMED_RESULT_SCHEMAS)[K]>

const proven = <T extends true>(): T | undefined => undefined

export const namedSchemas = [
  proven<Same<Schema<'SaleView'>, SaleView>>(),
  proven<Same<Schema<'QueueItemView'>, QueueItemView>>(),
  proven<Same<Schema<'QueueStatusView'>, QueueStatusView>>(),
  proven<Same<Schema<'DayTotalsView'>, DayTotalsView>>(),
  proven<Same<Schema<'BatchView'>, BatchView>>(),
  proven<Same<Schema<'BatchSummaryView'>, BatchSummaryView>>(),
  proven<Same<Schema<'DayReportView'>, DayReportView>>(),
  proven<Same<Schema<'DevicePrompt'>, DevicePrompt>>(),
  proven<Same<Schema<'DeviceStatusView'>, DeviceStatusView>>(),
  proven<Same<Schema<'AlarmView'>, AlarmView>>(),
  proven<Same<Schema<'AppInfo'>, AppInfo>>(),
  proven<Same<Schema<'SettingsView'>, SettingsView>>(),
  proven<Same<Schema<'DayExport'>, OperationResults['exportDay']>>(),
  proven<Same<Schema<'ErrorView'>, PosErrorView>>(),
  proven<Same<Schema<'PosEvent'>, PosEvent>>(),
  proven<Same<Schema<'PosStreamSnapshot'>, PosStreamSnapshot>>(),
  proven<Same<Schema<'PosStreamHeartbeat'>, PosStreamHeartbeat>>(),
]

/** Every operation's result schema is its entry of OperationResults. */
type ResultsMatch = { [K in keyof OperationResults]: Same<z.infer<(typeof RESULT_SCHEMAS)[K]>, OperationResults[K]> }
export const everyOperation = proven<ResultsMatch[keyof OperationResults]>()

// The check bites: a schema one field short of its interface is refused.
// @ts-expect-error SaleView has a `state` the narrower shape lacks
export const narrower = proven<Same<Omit<Schema<'SaleView'>, 'state'>, SaleView>>()

/**
 * `pos-agent lift-fence`: puts a rescued terminal back in service (docs/store.md "Lifting a fence").
 * The work is the store's (src-main/store/lift-fence.ts); here the lane's audit trail and the console.
 */
import type { AuditEntry } from '../../journal'
import { liftFenceRun, type LiftFenceRunInput } from '../../store'

export interface LiftFenceInput extends Omit<LiftFenceRunInput, 'audit' | 'print' | 'warn'> {
  /** Appends to the audit trail of the lane the command runs on. */
  audit: (entry: Omit<AuditEntry, 'door'>) => void
}

export function liftFenceCommand(input: LiftFenceInput): Promise<number> {
  return liftFenceRun({ ...input, print: (text) => console.log(text), warn: (text) => console.error(text) })
}

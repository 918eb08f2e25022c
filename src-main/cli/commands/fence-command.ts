/**
 * `pos-agent lift-fence`: puts a rescued terminal back in service (docs/store.md "Lifting a fence").
 * The work is the store's (src-main/store/lift-fence.ts); here the lane's audit trail and the console.
 */
import { liftFenceRun, type LiftFenceRunInput } from '../../store'

export type LiftFenceInput = Omit<LiftFenceRunInput, 'print' | 'warn'>

export function liftFenceCommand(input: LiftFenceInput): Promise<number> {
  return liftFenceRun({ ...input, print: (text) => console.log(text), warn: (text) => console.error(text) })
}

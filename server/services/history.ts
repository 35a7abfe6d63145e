import type { Patch, Transaction } from '../store/state.js'

/** An instant of the sandbox clock as the ISO 8601 string every record and envelope carries. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/** Moves a record to `status` at `at`: the status, `updatedAt`, and one more entry in its history. */
export function recordTransition (tx: Patch<Transaction>, status: string, at: string, reason?: string): void {
  tx.status = status
  tx.updatedAt = at
  // concat makes an array of the exact length; push (or a spread) grows a one-entry array to room for
  // 17, about 150 bytes of heap per record that stay allocated for as long as the record lives.
  tx.history = tx.history.concat(reason !== undefined ? { status, at, reason } : { status, at })
}

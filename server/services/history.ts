import type { Transaction } from '../store/state.js'

/** An instant of the sandbox clock as the ISO 8601 string every record and envelope carries. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/** Moves a record to `status` at `at`: the status, `updatedAt`, and one more entry in its history. */
export function recordTransition (tx: Transaction, status: string, at: string, reason?: string): void {
  tx.status = status
  tx.updatedAt = at
  tx.history.push({ status, at, ...(reason !== undefined ? { reason } : {}) })
}

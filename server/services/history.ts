import type { Patch, Transaction } from '../store/state.js'

/** An instant of the sandbox clock as the ISO 8601 string every record and envelope carries. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/** What a transition writes on a record, whatever its kind. */
interface Transitioned {
  status: string
  updatedAt: string
  history: ReadonlyArray<{ status: string, at: string, reason?: string }>
}

/**
 * Moves a record to `status` at `at`: the status, `updatedAt`, and one more entry in its history. The
 * status is one of the record's kind's (of its kinds' while the caller has not narrowed `tx.kind`).
 */
export function recordTransition<T extends Patch<Transaction>> (tx: T, status: T['status'], at: string, reason?: string): void {
  // The caller's type says `status` is the record's kind's; written through the fields every kind shares.
  const record: Transitioned = tx
  record.status = status
  record.updatedAt = at
  // concat makes an array of the exact length; push (or a spread) grows a one-entry array to room for
  // 17, about 150 bytes of heap per record that stay allocated for as long as the record lives.
  record.history = record.history.concat(reason !== undefined ? { status, at, reason } : { status, at })
}

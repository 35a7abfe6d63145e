import type { CobVBatch } from '../store/state.js'

/*
 * Reading API Pix's batches of due charges (lotecobv, collection `cobvBatches`): shared by the batch
 * service, which owns them, and the cobv service, which refuses a txid a batch holds.
 */

/** A batch's key in its collection: its id is the receiver's own, unique per account. */
export const batchKey = (accountId: number, id: number): string => `${accountId}:${id}`

/** The account's batch (other than `except`) that names a txid among its requests, with that request. */
export function batchNaming (batches: Readonly<Record<string, CobVBatch>>, accountId: number, txid: string, except?: number) {
  for (const batch of Object.values(batches)) {
    if (batch.accountId !== accountId || batch.id === except) continue
    const item = batch.items.find(i => i.txid === txid)
    if (item !== undefined) return { batch, item }
  }
  return undefined
}

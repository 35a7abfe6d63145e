/** The MED record of docs/gateway.md §2.10, as stored (the shape lives with every record in `store/state.ts`). Owned by the MED service. */
export type { MedRecord, MedStatus } from '../store/state.js'

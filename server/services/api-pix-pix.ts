import { isValidTxid } from '../domain/ids.js'
import type { Account, Transaction } from '../store/state.js'
import type { DevolucaoWrites, Ports } from '../ports.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { chargeData, cobChave } from './charge-records.js'
import { API_PIX_DEVOLUCAO } from './refunds.js'

/**
 * BACEN's API Pix over the PIX an account received (docs/api-pix.md, pix): which txid and key it shows
 * for them (its `Pix`, server/dialects/api-pix/views/), and their devoluções, the same records and
 * settlement as the gateway's, on API Pix's rules. The reads and the list are the central-bank
 * reads (central-bank-reads.ts) with API Pix's views.
 *
 * Which PIX carry a txid on API Pix: one that paid a charge of API Pix (a cob of either dialect, whose
 * txid has 26 to 35 characters), or a static code of a contract (Pix Automático) with a txid (1 to 25
 * characters, as `Pix.txid`'s own pattern admits); never one that paid a cash-in (its 25-character
 * reference is the gateway's own, no txid API Pix knows) nor one that arrived without a charge. Only
 * those with a txid show the key they were paid to, and only those reach a webhook of API Pix.
 */

export type ApiPixPixDeps = Pick<Ports, 'store'> & { refunds: DevolucaoWrites }

export class ApiPixPixService {
  constructor (private readonly deps: ApiPixPixDeps) {}

  /** The txid a received PIX carries on API Pix: its charge's, when that is a txid of API Pix, or the static code's it paid to a key. */
  txidOf (tx: Transaction): string | null {
    const txid = chargeData(tx).txid
    const toKey = tx.kind === 'PIX_IN' && tx.data.chave !== undefined
    return txid !== null && (isValidTxid(txid) || toKey) ? txid : null
  }

  /** The key a PIX with a txid was paid to: its charge's (a cob made without one shows its account's document key). */
  chaveOf (tx: Transaction): string | undefined {
    return this.txidOf(tx) === null ? undefined : cobChave(tx, this.deps.store.account(tx.accountId))
  }

  /** PUT /pix/{e2eid}/devolucao/{id}: the refunds service's devolução, within 90 days and natureza ORIGINAL. */
  devolucao (account: Account, e2eid: string, id: string, body: { valor: string, natureza?: 'ORIGINAL' | 'RETIRADA', descricao?: string }, scenarios: AppliedScenario[]): Transaction {
    return this.deps.refunds.devolucao(account, e2eid, id, body, scenarios, API_PIX_DEVOLUCAO)
  }

  devolucaoOf (account: Account, e2eid: string, id: string): Transaction {
    return this.deps.refunds.devolucaoOf(account, e2eid, id)
  }
}

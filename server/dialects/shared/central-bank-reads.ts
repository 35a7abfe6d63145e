import { Refusal } from '../../errors/refusal.js'
import type { Account, Transaction, TransactionKind, TransactionOf } from '../../store/state.js'
import { receivedOf } from '../../services/charge-records.js'
import type { CobViews, Ports, ReceivedPixReads, ReceivedPixViews, RefundReads } from '../../ports.js'
import { bacenList, type BacenList, type ListFilter } from './bacen-list.js'

/**
 * The reads of BACEN's API Pix (2.9.0) that the gateway's central-bank-compatible routes and API Pix
 * both answer, over the records the charge and refund services own: the account's cobs (`GET /cob`)
 * and the PIX it received (`GET /pix`, `GET /pix/{e2eid}`), each shown by the dialect's view.
 * Read-only: nothing here writes to the store.
 */

/** GET /cob's parameters. */
export interface CobListFilter extends ListFilter {
  locationPresente?: boolean
  status?: string
}

/** GET /pix's parameters. */
export interface PixListFilter extends ListFilter {
  txid?: string
  txIdPresente?: boolean
  devolucaoPresente?: boolean
}

export type CentralBankReadDeps<Cob, Pix> = Pick<Ports, 'store'> & { charges: CobViews<Cob>, refunds: RefundReads, pix: ReceivedPixViews<Pix>, received: ReceivedPixReads }

/** The filters GET /cob, GET /cobv (and GET /rec) echo in `parametros`, in BACEN's order. */
export const COB_FILTERS = ['cpf', 'cnpj', 'locationPresente', 'status'] as const

/** How a list of charges of one kind reads each: its devedor, and whether it still shows a location. */
export interface ChargeListReading<K extends 'COB' | 'COBV'> {
  devedor: (tx: TransactionOf<K>) => { readonly cpf?: string, readonly cnpj?: string } | undefined
  hasLocation: (tx: TransactionOf<K>) => boolean
}

/**
 * GET /cob and GET /cobv: charges of a kind created within [inicio, fim], with the filters of both
 * (cpf or cnpj of the devedor, status, locationPresente), oldest first, echoed as API Pix's
 * ParametrosConsultaCob.
 */
export function chargeList<K extends 'COB' | 'COBV'> (read: ChargeListReading<K>): BacenList<TransactionOf<K>, CobListFilter> {
  return {
    at: tx => tx.createdAt,
    filters: {
      cpf: (tx, cpf) => read.devedor(tx)?.cpf === cpf,
      cnpj: (tx, cnpj) => read.devedor(tx)?.cnpj === cnpj,
      status: (tx, status) => tx.status === status,
      locationPresente: (tx, present) => read.hasLocation(tx) === present,
    },
    echo: COB_FILTERS,
  }
}

/** The account's transactions of a kind, in the order they were made (the store's index of the account's transactions). */
export function * transactionsOfKind<K extends TransactionKind> (store: Ports['store'], accountId: number, kind: K): Iterable<TransactionOf<K>> {
  for (const tx of store.transactionsOf(accountId)) if (tx.kind === kind) yield tx as TransactionOf<K>
}

export class CentralBankReads<Cob, Pix> {
  private readonly cobList: BacenList<TransactionOf<'COB'>, CobListFilter>
  private readonly pixList: BacenList<Transaction, PixListFilter>

  constructor (private readonly deps: CentralBankReadDeps<Cob, Pix>) {
    this.cobList = chargeList<'COB'>({
      devedor: tx => tx.data.cob.devedor,
      // Every cob is created with its location; API Pix's may have been unbound from it since.
      hasLocation: tx => this.deps.charges.hasLocation?.(tx) ?? true,
    })
    this.pixList = {
      at: tx => receivedOf(tx)?.at,
      filters: {
        txid: (tx, txid) => this.deps.pix.txidOf(tx) === txid,
        txIdPresente: (tx, present) => (this.deps.pix.txidOf(tx) !== null) === present,
        devolucaoPresente: (tx, present) => (this.deps.refunds.refundsOf(tx).length > 0) === present,
        cpf: (tx, cpf) => receivedOf(tx)!.payer.document === cpf,
        cnpj: (tx, cnpj) => receivedOf(tx)!.payer.document === cnpj,
      },
      echo: ['txid', 'txIdPresente', 'devolucaoPresente', 'cpf', 'cnpj'],
    }
  }

  /** GET /cob: the account's charges created within [inicio, fim], oldest first, paged. */
  cobs (account: Account, q: CobListFilter) {
    const { parametros, items } = bacenList(q, w => this.deps.charges.cobsOf?.(account.id, w) ?? transactionsOfKind(this.deps.store, account.id, 'COB'), this.cobList)
    return { parametros, cobs: items.map(tx => this.deps.charges.cobView(tx)) }
  }

  /** GET /pix: the PIX the account received within [inicio, fim] (by `horario`), oldest first, paged. */
  receivedList (account: Account, q: PixListFilter) {
    // By `horario`, not by creation: the index lists them in the order they arrived.
    const { parametros, items } = bacenList(q, w => this.deps.received.receivedWithin(account.id, w), this.pixList)
    return { parametros, pix: items.map(tx => this.deps.pix.view(tx)) }
  }

  /** GET /pix/{e2eid}: a PIX this account received; 404 for any other e2eid, another account's included. */
  received (account: Account, e2eid: string) {
    const tx: Transaction | undefined = this.deps.store.transactionByRef(`e2e-in:${e2eid}`)
    if (!tx || tx.accountId !== account.id || !receivedOf(tx)) throw new Refusal('NOT_FOUND', `Pix ${e2eid} não encontrado`)
    return this.deps.pix.view(tx)
  }
}

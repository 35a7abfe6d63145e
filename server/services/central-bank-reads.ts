import { parseInstant } from '../domain/instant.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, Transaction, TransactionOf } from '../store/state.js'
import { receivedOf } from './charge-records.js'
import type { CobViews, Ports, ReceivedPixViews, RefundReads } from '../ports.js'

/**
 * The reads of BACEN's API Pix (2.9.0) over the records the charge and refund services own: the
 * account's cobs (`GET /cob`) and the PIX it received (`GET /pix`, `GET /pix/{e2eid}`). Read-only:
 * nothing here writes to the store.
 */

/** BACEN's paging of a list: the page from 0, and the items per page. */
export interface Paging {
  'paginacao.paginaAtual'?: number
  'paginacao.itensPorPagina'?: number
}

/** What every list of BACEN's filters on: a window of time (RFC 3339, both inclusive), and a document. */
export interface ListFilter extends Paging {
  inicio: string
  fim: string
  cpf?: string
  cnpj?: string
}

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

export type CentralBankReadDeps<Cob, Pix> = Pick<Ports, 'store'> & { charges: CobViews<Cob>, refunds: RefundReads, pix: ReceivedPixViews<Pix> }

export interface Window { from: number, to: number }

/** The filters GET /cob, GET /cobv (and GET /rec) echo in `parametros`. */
export const COB_FILTERS = ['cpf', 'cnpj', 'locationPresente', 'status'] as const

/**
 * inicio and fim as BACEN reads them (RFC 3339, both inclusive), one message per bad field; a bound a
 * list leaves optional (GET /webhook) is open when absent.
 */
export function windowOf (q: Omit<ListFilter, 'inicio' | 'fim'> & { inicio?: string, fim?: string }): Window {
  const problems: string[] = []
  const from = q.inicio === undefined ? -Infinity : parseInstant(q.inicio)
  const to = q.fim === undefined ? Infinity : parseInstant(q.fim)
  if (from === null) problems.push('inicio deve ser uma data-hora RFC 3339, ex.: 2026-03-10T00:00:00Z')
  if (to === null) problems.push('fim deve ser uma data-hora RFC 3339, ex.: 2026-03-10T23:59:59Z')
  if (from !== null && to !== null && from > to) problems.push('fim deve ser igual ou posterior a inicio')
  if (q.cpf !== undefined && q.cnpj !== undefined) problems.push('cpf e cnpj não podem ser usados ao mesmo tempo')
  if (problems.length > 0) throw invalidRequest(problems)
  return { from: from!, to: to! }
}

/** One page of a list, and BACEN's Paginacao of it. */
export function page<T> (items: T[], q: Paging) {
  const paginaAtual = q['paginacao.paginaAtual'] ?? 0
  const itensPorPagina = q['paginacao.itensPorPagina'] ?? 100
  return {
    items: items.slice(paginaAtual * itensPorPagina, (paginaAtual + 1) * itensPorPagina),
    // BACEN's Paginacao has at least one page, even an empty one.
    paginacao: { paginaAtual, itensPorPagina, quantidadeDePaginas: Math.max(1, Math.ceil(items.length / itensPorPagina)), quantidadeTotalDeItens: items.length },
  }
}

/** The filters a list was asked with, as its `parametros` echo them: those given, and only those. */
export function givenFilters<Q extends object, K extends keyof Q> (q: Q, keys: readonly K[]): Partial<Pick<Q, K>> {
  const out: Partial<Pick<Q, K>> = {}
  for (const k of keys) if (q[k] !== undefined) out[k] = q[k]
  return out
}

export const within = (at: string, w: Window): boolean => {
  const ms = Date.parse(at)
  return ms >= w.from && ms <= w.to
}

/** How a list of charges of one kind reads each: its devedor, whether it still shows a location, and any further filter. */
export interface ChargeListReading<K extends 'COB' | 'COBV'> {
  devedor: (tx: TransactionOf<K>) => { readonly cpf?: string, readonly cnpj?: string } | undefined
  hasLocation: (tx: TransactionOf<K>) => boolean
  more?: (tx: TransactionOf<K>) => boolean
}

/**
 * GET /cob and GET /cobv: the account's charges of a kind created within [inicio, fim], with the
 * filters of both (cpf or cnpj of the devedor, status, locationPresente), oldest first, one page, and
 * the parameters echoed as API Pix's ParametrosConsultaCob.
 */
export function chargeList<K extends 'COB' | 'COBV'> (store: Ports['store'], account: Account, q: CobListFilter, kind: K, read: ChargeListReading<K>) {
  const w = windowOf(q)
  const charges = store.transactionsOf(account.id).filter((tx): tx is TransactionOf<K> => {
    if (tx.kind !== kind || !within(tx.createdAt, w)) return false
    const charge = tx as TransactionOf<K>
    const devedor = read.devedor(charge)
    if (q.cpf !== undefined && devedor?.cpf !== q.cpf) return false
    if (q.cnpj !== undefined && devedor?.cnpj !== q.cnpj) return false
    if (q.status !== undefined && tx.status !== q.status) return false
    if (q.locationPresente !== undefined && read.hasLocation(charge) !== q.locationPresente) return false
    return read.more?.(charge) ?? true
  })
  const { items, paginacao } = page(charges, q)
  return {
    parametros: {
      inicio: q.inicio,
      fim: q.fim,
      ...givenFilters(q, COB_FILTERS),
      paginacao,
    },
    items,
  }
}

export class CentralBankReads<Cob, Pix> {
  constructor (private readonly deps: CentralBankReadDeps<Cob, Pix>) {}

  /** GET /cob: the account's charges created within [inicio, fim], oldest first, paged. */
  cobs (account: Account, q: CobListFilter) {
    const { parametros, items } = chargeList(this.deps.store, account, q, 'COB', {
      devedor: tx => tx.data.cob.devedor,
      // Every cob is created with its location; API Pix's may have been unbound from it since.
      hasLocation: tx => this.deps.charges.hasLocation?.(tx) ?? true,
    })
    return { parametros, cobs: items.map(tx => this.deps.charges.cobView(tx)) }
  }

  /** GET /pix: the PIX the account received within [inicio, fim] (by `horario`), oldest first, paged. */
  receivedList (account: Account, q: PixListFilter) {
    const w = windowOf(q)
    const received = this.deps.store.transactionsOf(account.id).filter(tx => {
      const r = receivedOf(tx)
      if (!r || !within(r.at, w)) return false
      const txid = this.deps.pix.txidOf(tx)
      if (q.txid !== undefined && txid !== q.txid) return false
      if (q.txIdPresente !== undefined && (txid !== null) !== q.txIdPresente) return false
      if (q.devolucaoPresente !== undefined && (this.deps.refunds.refundsOf(tx).length > 0) !== q.devolucaoPresente) return false
      if (q.cpf !== undefined && r.payer.document !== q.cpf) return false
      if (q.cnpj !== undefined && r.payer.document !== q.cnpj) return false
      return true
    }).sort((a, b) => Date.parse(receivedOf(a)!.at) - Date.parse(receivedOf(b)!.at))
    const { items, paginacao } = page(received, q)
    return {
      parametros: {
        inicio: q.inicio,
        fim: q.fim,
        ...(q.txid !== undefined ? { txid: q.txid } : {}),
        ...(q.txIdPresente !== undefined ? { txIdPresente: q.txIdPresente } : {}),
        ...(q.devolucaoPresente !== undefined ? { devolucaoPresente: q.devolucaoPresente } : {}),
        ...(q.cpf !== undefined ? { cpf: q.cpf } : {}),
        ...(q.cnpj !== undefined ? { cnpj: q.cnpj } : {}),
        paginacao,
      },
      pix: items.map(tx => this.deps.pix.view(tx)),
    }
  }

  /** GET /pix/{e2eid}: a PIX this account received; 404 for any other e2eid, another account's included. */
  received (account: Account, e2eid: string) {
    const tx: Transaction | undefined = this.deps.store.transactionByRef(`e2e-in:${e2eid}`)
    if (!tx || tx.accountId !== account.id || !receivedOf(tx)) throw new Refusal('NOT_FOUND', `Pix ${e2eid} não encontrado`)
    return this.deps.pix.view(tx)
  }
}

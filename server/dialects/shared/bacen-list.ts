import { parseInstant } from '../../domain/instant.js'
import { invalidRequest } from '../../errors/refusal.js'

/*
 * How a list of BACEN's API Pix (2.9.0) answers, once for all of them (GET /cob, /cobv, /lotecobv,
 * /pix, /webhook, /rec, /locrec, /cobr, /loc, and the gateway's central-bank GET /cob and /pix): a
 * window of time (`inicio`, `fim`), the list's filters, oldest first, one page (`paginacao`), and the
 * parameters it was asked with echoed in `parametros`. The records come from an indexed query of the
 * core (the account's, in the order they were made; GET /pix's in the order they arrived); each list
 * says only how it reads them.
 */

/** BACEN's paging of a list: the page from 0, and the items per page. */
export interface Paging {
  'paginacao.paginaAtual'?: number
  'paginacao.itensPorPagina'?: number
}

/** What every list is asked: a window of time (RFC 3339, both inclusive; optional on GET /webhook), and paging. */
export interface WindowQuery extends Paging {
  inicio?: string
  fim?: string
  cpf?: string
  cnpj?: string
}

/** What most lists filter on: a window of time (both bounds), and a document. */
export interface ListFilter extends WindowQuery {
  inicio: string
  fim: string
}

export interface Window { from: number, to: number }

/**
 * inicio and fim as BACEN reads them (RFC 3339, both inclusive), one message per bad field; a bound a
 * list leaves optional (GET /webhook) is open when absent.
 */
export function windowOf (q: WindowQuery): Window {
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

export const within = (at: string, w: Window): boolean => {
  const ms = Date.parse(at)
  return ms >= w.from && ms <= w.to
}

/** One page of a list, and BACEN's Paginacao of it. */
export function page<T> (items: readonly T[], q: Paging) {
  const paginaAtual = q['paginacao.paginaAtual'] ?? 0
  const itensPorPagina = q['paginacao.itensPorPagina'] ?? 100
  return {
    items: items.slice(paginaAtual * itensPorPagina, (paginaAtual + 1) * itensPorPagina),
    // BACEN's Paginacao has at least one page, even an empty one.
    paginacao: { paginaAtual, itensPorPagina, quantidadeDePaginas: Math.max(1, Math.ceil(items.length / itensPorPagina)), quantidadeTotalDeItens: items.length },
  }
}

/** The filters of a query a list may be asked, each a test of a record against the value asked (only those asked apply). */
export type ListFilters<R, Q> = { readonly [K in keyof Q]?: (record: R, value: NonNullable<Q[K]>) => boolean }

/** How one list reads its records. */
export interface BacenList<R, Q extends WindowQuery> {
  /** The instant the window is of: the record's creation, a received PIX's `horario`; undefined for a record the list never shows. */
  at: (record: R) => string | undefined
  /** Its filters by the query's field, in the order they are cheapest to test. */
  filters: ListFilters<R, Q>
  /**
   * The filters its `parametros` echo after inicio and fim, in BACEN's order: those asked, and only
   * those; `convenio` is echoed as `recebedor.convenio`.
   */
  echo: ReadonlyArray<keyof Q & string>
  /** Its order, when not the order the records come in (their index's: the order they were made, or arrived). */
  order?: (a: R, b: R) => number
}

/** BACEN's Paginacao of a page. */
export type Paginacao = ReturnType<typeof page>['paginacao']

/** What a list's `parametros` echo of its query Q: inicio and fim as asked, the filters asked (`convenio` as `recebedor.convenio`), and the page. */
export type Parametros<Q extends WindowQuery> =
  Pick<Q, 'inicio' | 'fim'> & Partial<Omit<Q, 'inicio' | 'fim' | 'convenio' | keyof Paging>> & { recebedor?: { convenio: string }, paginacao: Paginacao }

/**
 * One list's answer: its `parametros` (the query echoed, with `paginacao`), and the page of records
 * (a dialect's view shows each). `records` are the candidates of the window, from the core's indexed
 * query (the account's records created within it, or that arrived within it for GET /pix); each is
 * checked against the window again.
 */
export function bacenList<R, Q extends WindowQuery> (q: Q, records: (window: Window) => Iterable<R>, list: BacenList<R, Q>): { parametros: Parametros<Q>, items: R[] } {
  const w = windowOf(q)
  const asked = Object.entries(list.filters).filter(([field, test]) => test !== undefined && q[field as keyof Q] !== undefined) as Array<[keyof Q, (record: R, value: unknown) => boolean]>
  const kept: R[] = []
  for (const record of records(w)) {
    const at = list.at(record)
    if (at === undefined || !within(at, w)) continue
    if (asked.every(([field, test]) => test(record, q[field]))) kept.push(record)
  }
  if (list.order !== undefined) kept.sort(list.order)
  const { items, paginacao } = page(kept, q)
  return { parametros: { ...echoed(q, list.echo), paginacao } as Parametros<Q>, items }
}

/** The parameters a list was asked with, as its `parametros` echo them: inicio and fim when given, then its filters asked. */
function echoed<Q extends WindowQuery> (q: Q, filters: ReadonlyArray<keyof Q & string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const field of ['inicio', 'fim', ...filters] as Array<keyof Q & string>) {
    const value = q[field]
    if (value === undefined) continue
    if (field === 'convenio') out.recebedor = { convenio: value }
    else out[field] = value
  }
  return out
}

/**
 * Due charges (cobv) of API Pix 2.9.0: the rules on a charge's `calendario` and `valor`, and the
 * amount due on a payment date. Pure: dates are São Paulo calendar days passed in
 * (`saoPauloTime(clock.now()).day`, calendar.ts), amounts are integer cents inside and API Pix's
 * `"123.45"` strings at the edge.
 *
 * API (for the routes of the dialect; propriedade names are API Pix's own, `cobv.` prefixed):
 * - `parseCobVTerms({ calendario, valor }, { criacao })`: a PUT's two objects, as received (unknown),
 *   checked. `{ ok: true, terms }` (normalized: `validadeAposVencimento` defaulted to 30, modalidades
 *   as integers, unknown members dropped) or `{ ok: false, violacoes }`, every violation found, in
 *   the words of the YAML's CobVOperacaoInvalida list, for a 400 problem answer.
 *   `criacao` is the São Paulo date the charge was created (today, for a PUT that creates).
 * - `reviseCobVTerms(current, { calendario, valor }, { criacao })`: a PATCH. Each member given
 *   replaces the current one (`multa`, `juros`, `abatimento`, `desconto` whole), the rest is kept,
 *   and the result is checked as a PUT is.
 * - `cobvDue(terms, paymentDate)`: whether the charge can be paid that day and, if so, each part
 *   of the amount and `final`, in cents. `cobvPayloadValor(amounts)` is the payload's `valor`
 *   (CobVPayloadValor). `cobvDueDate` and `cobvLastPayableDate` give the two dates alone.
 *
 * The rules, where API Pix leaves a choice (docs/assumptions.md, due charges):
 * - Due date: one that falls on a weekend or national holiday moves to the next business day
 *   (business-days.ts), and so does everything counted from it: no fine or interest up to the
 *   moved date, the days of validity counted from it. The last day of validity, dataDeVencimento
 *   moved + validadeAposVencimento calendar days, moves to the next business day too: the YAML's
 *   examples A, E and G accept a payment on the Monday after a validity ending on a weekend or
 *   holiday. Municipal holidays are not known, so not applied.
 * - Amounts: `final = original - abatimento - desconto + multa + juros`. `abatimento` as a
 *   percentage is of `original` (the YAML says so); every other percentage is of what is owed after
 *   it, `original - abatimento`. Each part is rounded once, half-up to the cent, from exact integers
 *   (never a float): the rounding of money.ts (`percentOf`, `brlToCents`), and the one a payer gets
 *   from a calculator or a spreadsheet's ROUND, so a payer can check the amount; half-even's
 *   advantage, no bias over many sums, does not matter for one amount per payment.
 *   Neither abatimento nor desconto takes what is owed below 0.01, the smallest PIX.
 * - desconto 1 and 2 (fixed amount or percentage until a date): every element whose date is not
 *   past applies, the largest wins (the payer is owed each; they do not add up). A date equal to
 *   dataDeVencimento moves with it. 3 to 6: the amount or percentage times the days between the
 *   payment and the (moved) due date, calendar days (3, 5) or business days (4, 6).
 * - multa: once, on any payment after the (moved) due date. juros: simple interest on the days
 *   late, calendar days (1 to 4) or business days (5 to 8); a monthly rate is a 30-day month with
 *   calendar days and a 21-business-day month with business days, a yearly rate a 360-day year or
 *   a 252-business-day year (the market's conventions).
 * - Business days between two dates are those after the first up to and including the second: paid
 *   on Saturday after a Friday due date is 0 business days late, on Monday 1.
 */
import type { DeepReadonly } from '../store/state.js'
import { addCalendarDays, businessDayOnOrAfter, businessDaysBetween, calendarDaysBetween, type IsoDate } from './business-days.js'
import { hundredths, isRecord, RULE, schemaViolation, shown, type Violacao } from './api-pix-fields.js'
import { isIsoDate } from './instant.js'
import { centsToString, divideHalfUp } from './money.js'

export type { Violacao } from './api-pix-fields.js'

export type MultaModalidade = 1 | 2
export type JurosModalidade = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
export type AbatimentoModalidade = 1 | 2
export type DescontoModalidade = 1 | 2 | 3 | 4 | 5 | 6

export interface DescontoDataFixa { data: IsoDate, valorPerc: string }

/** `valor.desconto`: a list of dated discounts (1, 2) or one rate per day of anticipation (3 to 6). */
export type CobVDesconto =
  | { modalidade: 1 | 2, descontoDataFixa: DescontoDataFixa[] }
  | { modalidade: 3 | 4 | 5 | 6, valorPerc: string }

/** A charge's `valor` as API Pix writes it (CobVValor), decimal strings `\d{1,10}\.\d{2}`. */
export interface CobVValor {
  original: string
  multa?: { modalidade: MultaModalidade, valorPerc: string }
  juros?: { modalidade: JurosModalidade, valorPerc: string }
  abatimento?: { modalidade: AbatimentoModalidade, valorPerc: string }
  desconto?: CobVDesconto
}

export interface CobVCalendario { dataDeVencimento: IsoDate, validadeAposVencimento: number }

/** What a due charge's amount depends on: stored with the charge, echoed in CobVGerada. */
export interface CobVTerms { calendario: CobVCalendario, valor: CobVValor }

export type CobVTermsResult = { ok: true, terms: CobVTerms } | { ok: false, violacoes: Violacao[] }

/** The parts of the amount due on one day, in cents; `final` is what the payer pays. */
export interface CobVAmounts {
  original: number
  abatimento: number
  desconto: number
  multa: number
  juros: number
  final: number
}

/**
 * The charge on a payment date. Not payable after `lastPayableDate` (`VENCIDA`), nor when the
 * amount would exceed 9,999,999,999.99, the most API Pix's amount format can write.
 */
export type CobVDue =
  | { payable: true, dueDate: IsoDate, lastPayableDate: IsoDate, amounts: CobVAmounts }
  | { payable: false, reason: 'VENCIDA' | 'VALOR_ACIMA_DO_MAXIMO', dueDate: IsoDate, lastPayableDate: IsoDate }

/** The payload's `valor` (CobVPayloadValor): the parts that are not zero, `original` and `final` always. */
export interface CobVPayloadValor {
  original: string
  abatimento?: string
  desconto?: string
  multa?: string
  juros?: string
  final: string
}

/** The default of `calendario.validadeAposVencimento` (CobDataDeVencimento). */
export const DEFAULT_VALIDADE_APOS_VENCIMENTO = 30

const INT32_MAX = 2_147_483_647
/** The largest amount `\d{1,10}\.\d{2}` writes, in cents. */
const MAX_API_PIX_CENTS = 999_999_999_999n
/** Percentages are read in hundredths of a percent ("2.50" is 250): 100% is 10,000. */
const WHOLE = 10_000n

const JUROS: Record<JurosModalidade, { kind: 'valor' | 'dia' | 'mes' | 'ano', days: 'corridos' | 'uteis' }> = {
  1: { kind: 'valor', days: 'corridos' },
  2: { kind: 'dia', days: 'corridos' },
  3: { kind: 'mes', days: 'corridos' },
  4: { kind: 'ano', days: 'corridos' },
  5: { kind: 'valor', days: 'uteis' },
  6: { kind: 'dia', days: 'uteis' },
  7: { kind: 'mes', days: 'uteis' },
  8: { kind: 'ano', days: 'uteis' },
}
/** Days in the period of a rate: per day 1; a month 30 calendar or 21 business days; a year 360 or 252. */
const PERIOD_DAYS = { corridos: { dia: 1n, mes: 30n, ano: 360n }, uteis: { dia: 1n, mes: 21n, ano: 252n } } as const

// --- checking a request ---------------------------------------------------------------------------

/** A `modalidade`: an integer in range, or the same integer as a string, as the YAML's own example sends it ("2"). */
function modalidadeOf (value: unknown, max: number): number | null {
  const n = typeof value === 'string' && /^[1-9]$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= max ? n : null
}

const schemaObject = (path: string, rule: string): Violacao => schemaViolation('objeto', `cobv.${path}`, rule)
const schemaField = (path: string, rule: string, value: unknown): Violacao => schemaViolation('campo', `cobv.${path}`, rule, value)

/** What the schema of a due charge asks of its members (CobVSolicitada). */
const COBV_RULE = {
  calendario: 'deve ser um objeto com dataDeVencimento e, opcionalmente, validadeAposVencimento',
  validade: 'deve ser um número inteiro de dias, até 2147483647',
  validadeAte9999: 'deve ser um número de dias que termine a validade até 9999-12-31',
  rate: (max: number): string => `deve ser um objeto com modalidade (um inteiro de 1 a ${max}) e valorPerc (um valor com 2 casas decimais, como "2.00")`,
  desconto: 'deve ser um objeto com modalidade, um inteiro de 1 a 6',
  descontoDataFixa: 'descontoDataFixa deve ser uma lista de 1 a 3 elementos, cada um com data (AAAA-MM-DD) e valorPerc (como "1.00"), em datas diferentes',
  descontoValorPerc: 'valorPerc deve ser um valor com 2 casas decimais, como "1.00"',
  valor: 'deve ser um objeto com original, um valor com 2 casas decimais, como "10.00"',
} as const

const DESCONTO = 'cobv.valor.desconto'
const V = {
  dueBeforeCreation: (value: unknown): Violacao => ({ razao: 'O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.', propriedade: 'cobv.calendario.dataDeVencimento', ...shown(value) }),
  validadeNegative: (value: unknown): Violacao => ({ razao: 'O campo cobv.calendario.validadeAposVencimento é menor do que zero.', propriedade: 'cobv.calendario.validadeAposVencimento', ...shown(value) }),
  originalZero: (value: unknown): Violacao => ({ razao: 'O campo cobv.valor.original apresenta o valor zero.', propriedade: 'cobv.valor.original', ...shown(value) }),
  abatimentoTooLarge: (): Violacao => ({ razao: 'O objeto cobv.valor.abatimento representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.', propriedade: 'cobv.valor.abatimento' }),
  descontoTooLarge: (): Violacao => ({ razao: 'O objeto cobv.valor.desconto apresenta algum elemento de desconto que representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.', propriedade: DESCONTO }),
  descontoAfterDue: (): Violacao => ({ razao: 'O objeto cobv.valor.desconto apresenta algum elemento cuja data seja posterior à data de vencimento representada por calendario.dataDeVencimento.', propriedade: DESCONTO }),
  datedWithValorPerc: (): Violacao => ({ razao: 'O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém cobv.valor.desconto.valorPerc encontra-se preenchido.', propriedade: `${DESCONTO}.valorPerc` }),
  datedWithoutList: (): Violacao => ({ razao: 'O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém o array cobv.valor.desconto.descontoDataFixa está vazio ou nulo.', propriedade: `${DESCONTO}.descontoDataFixa` }),
  perDayWithoutValorPerc: (): Violacao => ({ razao: 'O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.valorPerc não está preenchido.', propriedade: `${DESCONTO}.valorPerc` }),
  perDayWithList: (): Violacao => ({ razao: 'O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.descontoDataFixa está preenchido ou não nulo.', propriedade: `${DESCONTO}.descontoDataFixa` }),
}

/** A fixed amount must stay below `original`, a percentage below 100%. */
function belowWhole (hundredthsValue: number, percent: boolean, originalCents: number | null): boolean {
  if (percent) return BigInt(hundredthsValue) < WHOLE
  return originalCents === null || hundredthsValue < originalCents
}

function checkCalendario (input: unknown, criacao: IsoDate, out: Violacao[]): CobVCalendario | null {
  if (!isRecord(input)) { out.push(schemaObject('calendario', COBV_RULE.calendario)); return null }
  const { dataDeVencimento, validadeAposVencimento = DEFAULT_VALIDADE_APOS_VENCIMENTO } = input
  let due: IsoDate | null = null
  if (typeof dataDeVencimento !== 'string' || !isIsoDate(dataDeVencimento)) out.push(schemaField('calendario.dataDeVencimento', RULE.date, dataDeVencimento))
  else if (dataDeVencimento < criacao) out.push(V.dueBeforeCreation(dataDeVencimento))
  else due = dataDeVencimento
  if (typeof validadeAposVencimento !== 'number' || !Number.isInteger(validadeAposVencimento) || validadeAposVencimento > INT32_MAX) {
    out.push(schemaField('calendario.validadeAposVencimento', COBV_RULE.validade, validadeAposVencimento))
    return null
  }
  if (validadeAposVencimento < 0) { out.push(V.validadeNegative(validadeAposVencimento)); return null }
  if (due === null) return null
  const calendario = { dataDeVencimento: due, validadeAposVencimento }
  try {
    cobvLastPayableDate(calendario)
  } catch {
    // A validity that ends after 9999-12-31 has no date API Pix can write.
    out.push(schemaField('calendario.validadeAposVencimento', COBV_RULE.validadeAte9999, validadeAposVencimento))
    return null
  }
  return calendario
}

/** multa, juros, abatimento: `{ modalidade, valorPerc }`. */
function checkRate<M extends number> (path: string, input: unknown, max: number, out: Violacao[]): { modalidade: M, valorPerc: string, hundredths: number } | null {
  const modalidade = isRecord(input) ? modalidadeOf(input.modalidade, max) : null
  const value = isRecord(input) ? hundredths(input.valorPerc) : null
  if (!isRecord(input) || modalidade === null || value === null) { out.push(schemaObject(path, COBV_RULE.rate(max))); return null }
  return { modalidade: modalidade as M, valorPerc: input.valorPerc as string, hundredths: value }
}

function checkDesconto (input: unknown, due: IsoDate | null, originalCents: number | null, out: Violacao[]): CobVDesconto | null {
  const modalidade = isRecord(input) ? modalidadeOf(input.modalidade, 6) as DescontoModalidade | null : null
  if (!isRecord(input) || modalidade === null) { out.push(schemaObject('valor.desconto', COBV_RULE.desconto)); return null }
  const { valorPerc, descontoDataFixa: list } = input
  if (modalidade === 1 || modalidade === 2) {
    const before = out.length
    if (valorPerc !== undefined && valorPerc !== null) out.push(V.datedWithValorPerc())
    if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) out.push(V.datedWithoutList())
    else if (!Array.isArray(list) || list.length > 3) out.push(schemaObject('valor.desconto', COBV_RULE.descontoDataFixa))
    else {
      const entries = list.map(e => isRecord(e) && typeof e.data === 'string' && isIsoDate(e.data) && hundredths(e.valorPerc) !== null
        ? { data: e.data, valorPerc: e.valorPerc as string, hundredths: hundredths(e.valorPerc) as number }
        : null)
      // Two elements with one date would make the discount of that day ambiguous.
      const dates = new Set(entries.map(e => e?.data))
      if (entries.includes(null) || dates.size < entries.length) out.push(schemaObject('valor.desconto', COBV_RULE.descontoDataFixa))
      else {
        const valid = entries as Array<NonNullable<typeof entries[number]>>
        if (due !== null && valid.some(e => e.data > due)) out.push(V.descontoAfterDue())
        if (!valid.every(e => belowWhole(e.hundredths, modalidade === 2, originalCents))) out.push(V.descontoTooLarge())
        if (out.length === before) return { modalidade, descontoDataFixa: valid.map(e => ({ data: e.data, valorPerc: e.valorPerc })) }
      }
    }
    return null
  }
  const before = out.length
  if (list !== undefined && list !== null) out.push(V.perDayWithList())
  if (valorPerc === undefined || valorPerc === null) out.push(V.perDayWithoutValorPerc())
  else {
    const value = hundredths(valorPerc)
    if (value === null) out.push(schemaObject('valor.desconto', COBV_RULE.descontoValorPerc))
    else if (!belowWhole(value, modalidade >= 5, originalCents)) out.push(V.descontoTooLarge())
  }
  return out.length === before ? { modalidade, valorPerc: valorPerc as string } : null
}

function checkValor (input: unknown, due: IsoDate | null, out: Violacao[]): CobVValor | null {
  if (!isRecord(input)) { out.push(schemaObject('valor', COBV_RULE.valor)); return null }
  const before = out.length
  const original = hundredths(input.original)
  if (original === null) out.push(schemaField('valor.original', RULE.decimal, input.original))
  else if (original === 0) out.push(V.originalZero(input.original))
  const originalCents = original === null || original === 0 ? null : original
  const valor: CobVValor = { original: input.original as string }
  if (input.multa !== undefined) {
    const multa = checkRate<MultaModalidade>('valor.multa', input.multa, 2, out)
    if (multa) valor.multa = { modalidade: multa.modalidade, valorPerc: multa.valorPerc }
  }
  if (input.juros !== undefined) {
    const juros = checkRate<JurosModalidade>('valor.juros', input.juros, 8, out)
    if (juros) valor.juros = { modalidade: juros.modalidade, valorPerc: juros.valorPerc }
  }
  if (input.abatimento !== undefined) {
    const abatimento = checkRate<AbatimentoModalidade>('valor.abatimento', input.abatimento, 2, out)
    if (abatimento && !belowWhole(abatimento.hundredths, abatimento.modalidade === 2, originalCents)) out.push(V.abatimentoTooLarge())
    else if (abatimento) valor.abatimento = { modalidade: abatimento.modalidade, valorPerc: abatimento.valorPerc }
  }
  if (input.desconto !== undefined) {
    const desconto = checkDesconto(input.desconto, due, originalCents, out)
    if (desconto) valor.desconto = desconto
  }
  return out.length === before ? valor : null
}

/**
 * A PUT's `calendario` and `valor` (CobVSolicitada), checked; `criacao` is the São Paulo date of
 * the charge's creation. Every violation is reported, not only the first.
 */
export function parseCobVTerms (input: { calendario?: unknown, valor?: unknown }, context: { criacao: IsoDate }): CobVTermsResult {
  if (!isIsoDate(context.criacao)) throw new RangeError(`criacao must be a YYYY-MM-DD date, got ${context.criacao}`)
  const violacoes: Violacao[] = []
  const calendario = checkCalendario(input.calendario, context.criacao, violacoes)
  // Discount dates are checked against the due date only when the due date itself is valid.
  const due = isRecord(input.calendario) && typeof input.calendario.dataDeVencimento === 'string' && isIsoDate(input.calendario.dataDeVencimento)
    ? input.calendario.dataDeVencimento
    : null
  const valor = checkValor(input.valor, due, violacoes)
  return calendario !== null && valor !== null && violacoes.length === 0
    ? { ok: true, terms: { calendario, valor } }
    : { ok: false, violacoes }
}

const CALENDARIO_MEMBERS = ['dataDeVencimento', 'validadeAposVencimento'] as const
const VALOR_MEMBERS = ['original', 'multa', 'juros', 'abatimento', 'desconto'] as const

/** `current` with the members a revision gives replaced; something that is not an object is kept as is, to be refused. */
function revised (current: object, revision: unknown, members: readonly string[]): unknown {
  if (revision === undefined) return current
  if (!isRecord(revision)) return revision
  const next: Record<string, unknown> = { ...current }
  for (const m of members) if (revision[m] !== undefined) next[m] = revision[m]
  return next
}

/**
 * A PATCH (CobVRevisada) on a charge's terms: each member given replaces the current one, and the
 * result is checked as a PUT's (a discount date after a new due date, an abatimento above a new
 * original, are refused). `criacao` is the charge's creation date, not today.
 */
export function reviseCobVTerms (current: DeepReadonly<CobVTerms>, revision: { calendario?: unknown, valor?: unknown }, context: { criacao: IsoDate }): CobVTermsResult {
  return parseCobVTerms({
    calendario: revised(current.calendario, revision.calendario, CALENDARIO_MEMBERS),
    valor: revised(current.valor, revision.valor, VALOR_MEMBERS),
  }, context)
}

// --- the amount due -------------------------------------------------------------------------------

/** dataDeVencimento, moved to the next business day when it is not one. */
export function cobvDueDate (dataDeVencimento: IsoDate): IsoDate {
  return businessDayOnOrAfter(dataDeVencimento)
}

/** The last day the charge can be paid: the moved due date + validadeAposVencimento days, itself moved to a business day. */
export function cobvLastPayableDate (calendario: DeepReadonly<CobVCalendario>): IsoDate {
  return businessDayOnOrAfter(addCalendarDays(cobvDueDate(calendario.dataDeVencimento), calendario.validadeAposVencimento))
}

function readHundredths (value: string): bigint {
  const n = hundredths(value)
  if (n === null) throw new RangeError(`not an API Pix decimal: ${value} (terms must come from parseCobVTerms)`)
  return BigInt(n)
}

/** A percentage (in hundredths of a percent) of an amount, times a count of days, over a period of days. */
function percentage (cents: bigint, rate: bigint, days: bigint = 1n, period: bigint = 1n): bigint {
  return divideHalfUp(cents * rate * days, WHOLE * period)
}

const min = (a: bigint, b: bigint): bigint => a < b ? a : b
const max0 = (a: bigint): bigint => a < 0n ? 0n : a

function descontoOn (desconto: DeepReadonly<CobVDesconto>, owed: bigint, paymentDate: IsoDate, dataDeVencimento: IsoDate, dueDate: IsoDate): bigint {
  switch (desconto.modalidade) {
    case 1:
    case 2: {
      let best = 0n
      for (const e of desconto.descontoDataFixa) {
        const until = e.data === dataDeVencimento ? dueDate : e.data
        if (paymentDate > until) continue
        const value = desconto.modalidade === 1 ? readHundredths(e.valorPerc) : percentage(owed, readHundredths(e.valorPerc))
        if (value > best) best = value
      }
      return best
    }
    case 3:
    case 5: {
      const days = max0(BigInt(calendarDaysBetween(paymentDate, dueDate)))
      return desconto.modalidade === 3 ? readHundredths(desconto.valorPerc) * days : percentage(owed, readHundredths(desconto.valorPerc), days)
    }
    case 4:
    case 6: {
      const days = max0(BigInt(businessDaysBetween(paymentDate, dueDate)))
      return desconto.modalidade === 4 ? readHundredths(desconto.valorPerc) * days : percentage(owed, readHundredths(desconto.valorPerc), days)
    }
  }
}

function jurosOn (juros: DeepReadonly<NonNullable<CobVValor['juros']>>, owed: bigint, dueDate: IsoDate, paymentDate: IsoDate): bigint {
  const { kind, days: counted } = JUROS[juros.modalidade]
  const days = BigInt(counted === 'corridos' ? calendarDaysBetween(dueDate, paymentDate) : businessDaysBetween(dueDate, paymentDate))
  const value = readHundredths(juros.valorPerc)
  return kind === 'valor' ? value * days : percentage(owed, value, days, PERIOD_DAYS[counted][kind])
}

/**
 * The charge on `paymentDate` (a São Paulo date): payable or not, and the amount. Terms must be
 * ones parseCobVTerms accepted (a malformed amount throws RangeError).
 */
export function cobvDue (terms: DeepReadonly<CobVTerms>, paymentDate: IsoDate): CobVDue {
  const { calendario, valor } = terms
  const dueDate = cobvDueDate(calendario.dataDeVencimento)
  const lastPayableDate = cobvLastPayableDate(calendario)
  if (paymentDate > lastPayableDate) return { payable: false, reason: 'VENCIDA', dueDate, lastPayableDate }
  const original = readHundredths(valor.original)
  let abatimento = 0n
  if (valor.abatimento) {
    const value = readHundredths(valor.abatimento.valorPerc)
    abatimento = min(valor.abatimento.modalidade === 1 ? value : percentage(original, value), original - 1n)
  }
  const owed = original - abatimento
  const desconto = valor.desconto ? min(descontoOn(valor.desconto, owed, paymentDate, calendario.dataDeVencimento, dueDate), owed - 1n) : 0n
  const late = paymentDate > dueDate
  let multa = 0n
  if (late && valor.multa) {
    const value = readHundredths(valor.multa.valorPerc)
    multa = valor.multa.modalidade === 1 ? value : percentage(owed, value)
  }
  const juros = late && valor.juros ? jurosOn(valor.juros, owed, dueDate, paymentDate) : 0n
  const final = owed - desconto + multa + juros
  if (final > MAX_API_PIX_CENTS) return { payable: false, reason: 'VALOR_ACIMA_DO_MAXIMO', dueDate, lastPayableDate }
  return {
    payable: true,
    dueDate,
    lastPayableDate,
    amounts: { original: Number(original), abatimento: Number(abatimento), desconto: Number(desconto), multa: Number(multa), juros: Number(juros), final: Number(final) },
  }
}

const PARTS = ['abatimento', 'desconto', 'multa', 'juros'] as const

/** The payload's `valor` for the amounts of a day: `original`, the parts that apply, `final`. */
export function cobvPayloadValor (amounts: CobVAmounts): CobVPayloadValor {
  const parts: Partial<CobVPayloadValor> = {}
  for (const k of PARTS) if (amounts[k] > 0) parts[k] = centsToString(amounts[k])
  return { original: centsToString(amounts.original), ...parts, final: centsToString(amounts.final) }
}

import { cobFieldProblems } from '../domain/cob.js'
import { saoPauloTime } from '../domain/calendar.js'
import { cobvDue, cobvLastPayableDate, cobvPayloadValor, parseCobVTerms, reviseCobVTerms, type CobVAmounts, type Violacao } from '../domain/cobv.js'
import { isIsoDate } from '../domain/instant.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, DeepReadonly, TransactionOf } from '../store/state.js'
import type { CobVBatchHolds, CobVFields, CobVRequest, CobVRequester, CobVRequests, CobVRevisionRequest, CobVWrites, PayloadLocations, PayloadSigning, Ports } from '../ports.js'
import { jkuOf, type PayloadAnswer, type PayloadFetch } from './api-pix-cobs.js'
import { txidInUse, txidKind } from './charge-records.js'

/**
 * BACEN's API Pix due charges (tag CobV; docs/api-pix.md, cobv) over the charges service, which keeps
 * and pays them as it does the cobs (`COBV` records): PUT creates one (or replaces an ATIVA one),
 * PATCH revises or removes it, GET reads one and the list. Each is served at a payload location of
 * its own kind (`<host>/qr/v2/cobv/<token>`), whose payload (CobVPayload) gives the amount due on the
 * day the payer means to pay. `calendario` and `valor` are checked and computed by server/domain/cobv.ts.
 */

type CobV = TransactionOf<'COBV'>

/** What the payer's PSP asks at a cobv's location: the municipality (codMun) and the payment date it means (DPP). */
export interface CobVPayloadFetch extends PayloadFetch {
  codMun?: string
  DPP?: string
}

/** IBGE's codes of the states, the first two digits of a municipality's code. */
const UF_CODES = new Set(['11', '12', '13', '14', '15', '16', '17', '21', '22', '23', '24', '25', '26', '27', '28', '29', '31', '32', '33', '35', '41', '42', '43', '50', '51', '52', '53'])

export type ApiPixCobVDeps = Pick<Ports, 'store' | 'clock'> & { cobvs: CobVWrites, locations: PayloadLocations, signer: PayloadSigning, batches: CobVBatchHolds }

export class ApiPixCobVs implements CobVRequests {
  constructor (private readonly deps: ApiPixCobVDeps) {}

  private today (): string {
    return saoPauloTime(this.deps.clock.now()).day
  }

  /**
   * PUT /cobv/{txid}: a new cobv, at the location `loc.id` names or at a new one at `host`; on an
   * existing ATIVA cobv, its fields replaced (a revision), at its own location. Everything that can
   * refuse is checked before the unit that writes.
   */
  put (account: Account, txid: string, body: CobVRequest, host: string, by: CobVRequester = {}): { charge: CobV, created: boolean } {
    // A txid names one charge of the account: a cobv's is revised here, any other kind's refused.
    const holder = this.deps.store.chargeOfTxid(account.id, txid)
    if (holder !== undefined && txidKind(holder) !== 'cobv') throw txidInUse(txid, holder, 'cobv')
    const existing = this.deps.cobvs.findCobV(account, txid)
    this.checkNotHeld(account, txid, by)
    if (existing !== undefined && existing.status !== 'ATIVA') {
      throw new Refusal('COB_NOT_ACTIVE', `A cobrança já existe, está ${existing.status} e não pode ser alterada`)
    }
    const criacao = existing === undefined ? this.today() : this.dayOf(existing.createdAt)
    const fields = this.checked(parseCobVTerms(body, { criacao }), body, existing === undefined ? by.batch : existing.data.cobv.loteCobVId)
    if (existing !== undefined) {
      if (body.loc !== undefined && body.loc.id !== existing.data.cobv.locId) throw locNotOwn(body.loc.id)
      return { charge: this.deps.cobvs.reviseCobV(existing, fields), created: false }
    }
    const given = body.loc === undefined ? undefined : this.deps.locations.usable(account, body.loc.id, 'cobv')
    // One unit with no await before it: the location, the charge and their binding are stored together or not at all.
    const charge = this.deps.store.transact(() => {
      const loc = given ?? this.deps.locations.create(account, 'cobv', host)
      const created = this.deps.cobvs.createCobV(account, txid, fields, by.scenarios ?? [], { locId: loc.id, location: loc.location })
      this.deps.locations.bind(loc.id, created.id)
      return created
    })
    return { charge, created: true }
  }

  /**
   * PATCH /cobv/{txid}: the members given replace the current ones (`calendario` and `valor` member
   * by member, as server/domain/cobv.ts revises them); the status REMOVIDA_PELO_USUARIO_RECEBEDOR
   * removes the charge and comes alone. Only an ATIVA cobv is revised.
   */
  revise (account: Account, txid: string, body: CobVRevisionRequest, by: CobVRequester = {}): CobV {
    const charge = this.cobv(account, txid)
    this.checkNotHeld(account, txid, by)
    if (body.status !== undefined) {
      const others = (['calendario', 'valor', 'devedor', 'chave', 'solicitacaoPagador', 'infoAdicionais', 'loc'] as const).filter(k => body[k] !== undefined)
      if (others.length > 0) throw invalidRequest(`A cobrança não pode ser removida (status ${body.status}) e alterada (${others.join(', ')}) na mesma requisição`, { fields: ['cobv.status'] })
    }
    if (charge.status !== 'ATIVA') throw new Refusal('COB_NOT_ACTIVE', `A cobrança está ${charge.status} e não pode ser alterada`)
    if (body.status !== undefined) return this.deps.cobvs.cancelCobV(charge)
    if (body.loc !== undefined && body.loc.id !== charge.data.cobv.locId) throw locNotOwn(body.loc.id)
    const current = charge.data.cobv
    const terms = reviseCobVTerms(current, body, { criacao: this.dayOf(charge.createdAt) })
    const fields = this.checked(terms, {
      devedor: body.devedor ?? current.devedor,
      chave: body.chave ?? current.chave,
      solicitacaoPagador: body.solicitacaoPagador ?? current.solicitacaoPagador,
      infoAdicionais: body.infoAdicionais ?? current.infoAdicionais,
    }, current.loteCobVId)
    return this.deps.cobvs.reviseCobV(charge, fields)
  }

  /** GET /cobv/{txid}: `revisao`, when given, must be the current one (the sandbox keeps no other). */
  get (account: Account, txid: string, revisao?: number): CobV {
    const charge = this.cobv(account, txid)
    const current = charge.data.cobv.revisao
    if (revisao !== undefined && revisao !== current) {
      throw invalidRequest(`A revisão ${revisao} não existe para esta cobrança: a atual é ${current}, a única que a sandbox guarda`, { fields: ['revisao'] })
    }
    return charge
  }

  /**
   * GET <location>?codMun=&DPP= of a cobv: its payload (CobVPayload, as `payloadOf` renders it), signed, with the amount due on
   * DPP (today in São Paulo when absent). A location serving no cobv is not found; one whose cobv can
   * no longer be paid (paid, removed, past its last payable day) is gone (410). A codMun that is no
   * IBGE code of a municipality, a DPP before today or after the last payable day: 400.
   */
  payload (token: string, fetch: CobVPayloadFetch, payloadOf: (charge: CobV, amounts: CobVAmounts) => Record<string, unknown>): PayloadAnswer {
    const loc = this.deps.locations.byTokenOf(token)
    const charge = loc === undefined ? undefined : this.deps.locations.charge(loc)
    if (loc === undefined || charge === undefined || charge.kind !== 'COBV') return { status: 'not-found' }
    const today = this.today()
    const terms = charge.data.cobv
    if (charge.status !== 'ATIVA' || today > cobvLastPayableDate(terms.calendario)) return { status: 'gone' }
    const violations: Violacao[] = []
    if (fetch.codMun !== undefined && !/^\d{7}$/.test(fetch.codMun)) violations.push({ razao: 'O parâmetro codMun não respeita o _schema_: 7 dígitos.', propriedade: 'codMun', valor: fetch.codMun })
    else if (fetch.codMun !== undefined && !UF_CODES.has(fetch.codMun.slice(0, 2))) violations.push({ razao: 'O parâmetro codMun não é um código válido segundo a tabela de municípios do IBGE: seus dois primeiros dígitos não são os de uma Unidade da Federação.', propriedade: 'codMun', valor: fetch.codMun })
    const date = fetch.DPP ?? today
    const due = isIsoDate(date) && date >= today ? cobvDue(terms, date) : undefined
    if (!isIsoDate(date)) violations.push({ razao: 'O parâmetro DPP não respeita o _schema_: uma data YYYY-MM-DD.', propriedade: 'DPP', valor: date })
    else if (due === undefined) violations.push({ razao: `O parâmetro DPP é anterior ao momento presente (${today}).`, propriedade: 'DPP', valor: date })
    else if (!due.payable && due.reason === 'VENCIDA') violations.push({ razao: `O parâmetro DPP é superior à validade da cobrança: ela pode ser paga até ${due.lastPayableDate}.`, propriedade: 'DPP', valor: date })
    else if (!due.payable) violations.push({ razao: 'O valor devido na data DPP excede 9999999999.99, o maior que a API Pix escreve.', propriedade: 'DPP', valor: date })
    if (due === undefined || !due.payable || violations.length > 0) throw violationsRefusal(violations)
    return { status: 'served', jws: this.deps.signer.sign(payloadOf(charge, due.amounts), jkuOf(loc, fetch)) }
  }

  /** The control plane's page of cobvs, of every account or one, the last made first: each with the amount due today (null when it cannot be paid today). */
  page (accountId: number | undefined, limit: number, cursor?: number): { cobvs: Array<{ charge: CobV, valorHoje: string | null }>, nextCursor?: number } {
    const today = this.today()
    const { records, nextCursor } = this.deps.cobvs.newestCobVs(accountId, limit, cursor)
    const cobvs = records.map(charge => {
      const due = charge.status === 'ATIVA' ? cobvDue(charge.data.cobv, today) : undefined
      return { charge, valorHoje: due?.payable === true ? cobvPayloadValor(due.amounts).final : null }
    })
    return { cobvs, ...(nextCursor !== undefined ? { nextCursor } : {}) }
  }

  /** The account's cobv of this txid; 404 CobVNaoEncontrada for any other. */
  cobv (account: Account, txid: string): CobV {
    const charge = this.deps.cobvs.findCobV(account, txid)
    if (charge === undefined) throw new Refusal('NOT_FOUND', `Cobrança com vencimento de txid ${txid} não encontrada`)
    return charge
  }

  /** The terms the domain checked, and the other fields checked here: a CobVOperacaoInvalida with every violation, or the fields to store. */
  private checked (terms: ReturnType<typeof parseCobVTerms>, rest: DeepReadonly<Pick<CobVRequest, 'devedor' | 'chave' | 'solicitacaoPagador' | 'infoAdicionais'>>, loteCobVId: number | undefined): CobVFields {
    const violations = terms.ok ? [] : [...terms.violacoes]
    for (const razao of cobFieldProblems({ devedor: rest.devedor }, 'alphanumeric')) violations.push({ razao, propriedade: 'cobv.devedor' })
    for (const razao of cobFieldProblems({ chave: rest.chave }, 'alphanumeric')) violations.push({ razao, propriedade: 'cobv.chave' })
    if (!terms.ok || violations.length > 0) throw violationsRefusal(violations)
    return {
      ...terms.terms,
      devedor: { ...rest.devedor },
      chave: rest.chave,
      ...(rest.solicitacaoPagador !== undefined ? { solicitacaoPagador: rest.solicitacaoPagador } : {}),
      ...(rest.infoAdicionais !== undefined ? { infoAdicionais: rest.infoAdicionais.map(i => ({ nome: i.nome, valor: i.valor })) } : {}),
      ...(loteCobVId !== undefined ? { loteCobVId } : {}),
    }
  }

  /**
   * A txid a batch (lotecobv) holds while its request there is EM_PROCESSAMENTO or NEGADA is not
   * written here (API Pix's CobVOperacaoInvalida), but by that batch itself.
   */
  private checkNotHeld (account: Account, txid: string, by: CobVRequester): void {
    const held = this.deps.batches.holding(account.id, txid, by.batch)
    if (held !== undefined && held.status !== 'CRIADA') {
      throw invalidRequest(`Este txid está associado ao lote ${held.batchId} e, no referido lote, o status desta cobrança está atribuído como ${held.status}`, { fields: ['cobv.txid'] })
    }
  }

  private dayOf (instant: string): string {
    return saoPauloTime(Date.parse(instant)).day
  }
}

/** A refusal listing API Pix's violations: `razao` each, with its `propriedade`. */
function violationsRefusal (violations: readonly Violacao[]): Refusal {
  return invalidRequest(violations.map(v => v.razao), { fields: violations.map(v => v.propriedade) })
}

const locNotOwn = (id: number): Refusal => invalidRequest(`loc.id ${id} não é a location desta cobrança`, { fields: ['cobv.loc.id'] })

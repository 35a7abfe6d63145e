import { addCalendarDays, type IsoDate } from '../domain/business-days.js'
import { parseLocalBound, saoPauloTime } from '../domain/calendar.js'
import {
  checkCobRAgainstRec, checkRetentativa, cobrAfterAttempt, cobrInstructionDate, cobrSettlementDate, cobrValorFits, COBR_FINAL_STATUSES, COBR_VIOLACOES,
  parseCobRRevision, parseCobRRequest, TENTATIVA_FINAL_STATUSES,
  type CobRAfterAttempt, type CobRRejeicao, type CobRRejeicaoCodigo, type CobRRetryContext, type CobRStatus, type TentativaResultado, type TentativaStatus, type TentativaTipo, type Violacao,
} from '../domain/cobr.js'
import { DEBIT_TIME, EVENING_DEBIT_TIME, rejeicaoOf, REJEICAO_RECUSA, REJEICAO_RETENTATIVA, type ForcedOutcome } from '../domain/cobr-debits.js'
import { hundredths } from '../domain/api-pix-fields.js'
import { endToEndId, txid as newTxid } from '../domain/ids.js'
import { recValueRule } from '../domain/rec.js'
import { recNextDueDate } from '../domain/rec-schedule.js'
import {
  CANCELAMENTO, cancelamentoPorRecEncerrada, cobrsToCancelWithRec, moveCobR, moveTentativa,
  type Ator, type CobREncerramento,
} from '../domain/rec-lifecycle.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, CobR, Draft, Mutable, Tentativa } from '../store/state.js'
import { DueJobs, KeyIndex, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import type { IncomingPix, Lifecycle, Ports, Recurrences, RecurrenceView, SimulatedPayers } from '../ports.js'
import { hasScenario } from '../../scenarios/resolver.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { iso } from './history.js'

/**
 * API Pix's recurring charges of Pix Automático (tag CobR; docs/api-pix.md, "Recurring charges"): a
 * receiver creates one per cycle of an approved recurrence; the sandbox plays both PSPs on the virtual
 * clock. Each charge's next timed step is derived from its record (`stepOf`) and stored as its `dueAt`:
 * - the instruction: the receiver's PSP sends the charge to the payer's PSP 10 days before its due date
 *   (or at once, when created later); the payer's PSP activates it (ATIVA, its first attempt AGND
 *   AGENDADA on the settlement date), or rejects it (above the payer's maximum: AM02);
 * - a debit, at DEBIT_TIME on an attempt's date: the control plane's forced outcome, else the scenario of
 *   the request that asked for the attempt, else the simulated payer (SimulatedPayers) decides: paid (a
 *   received PIX credited to the account, the charge CONCLUIDA), refused (REJEITADA with its code), no
 *   funds (tried again at EVENING_DEBIT_TIME that day, then the attempt EXPIRADA), or no answer (the
 *   attempt expires at the end of its day);
 * - the recurrence's end (cancelled, expired, rejected) cancels every charge of it not yet settled, with
 *   its pending attempts, in the unit that ends it; a step that would move money checks it again;
 * - after a failed attempt, the charge waits for a retry (`POST /cobr/{txid}/retentativa/{data}`) while
 *   its recurrence's policy and window allow one, and expires the day after the window closes.
 * Every status change of a charge or of one of its attempts after its creation is notified to the
 * receiver (the domain event `recurring-charge-changed`: API Pix's notifier posts it to `/webhookcobr`).
 */

/** What an attempt's debit comes to (the payer's PSP's answer on its date). */
type Debit =
  | { outcome: 'PAID' }
  | { outcome: 'REFUSED', rejeicao: CobRRejeicao }
  | { outcome: 'INSUFFICIENT_FUNDS' }
  | { outcome: 'NO_ANSWER' }

/** The next timed step of a charge, and when it is due. */
type Step = { kind: 'instruction' | 'debit' | 'no-answer' | 'expiry', at: number }

/** A recurrence's charges counted, in all and by status (the control plane's list of recurrences). */
export interface CobRSummary {
  total: number
  byStatus: Partial<Record<CobRStatus, number>>
}

/** What POST /__sandbox/clock/next-due (the CLI's `clock next-due`) moves the clock to: the next debit of a live charge. */
export interface NextDebit {
  accountId: number
  txid: string
  at: string
}

export type CobRDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng' | 'events'> & {
  recurrences: Recurrences
  payers: SimulatedPayers
  incoming: IncomingPix
}

const dayStart = (date: IsoDate): number => parseLocalBound(date, 'start')!
const at = (date: IsoDate, time: string): number => parseLocalBound(`${date}T${time}`, 'start')!
/** When a pending attempt's debit runs: 08:00 on its date, or 18:00 once the morning found no funds. */
const debitInstant = (t: { dataLiquidacao: IsoDate, semSaldo?: true }): number => at(t.dataLiquidacao, t.semSaldo === true ? EVENING_DEBIT_TIME : DEBIT_TIME)
const isFinal = (status: CobRStatus): boolean => COBR_FINAL_STATUSES.includes(status)
const isPending = (t: { status: TentativaStatus }): boolean => !TENTATIVA_FINAL_STATUSES.includes(t.status)

/** Domain violations as API Pix's invalid-operation answer: one `violacoes` entry each. */
const violations = (v: readonly Violacao[]): Refusal => invalidRequest(v.map(x => x.razao), { fields: v.map(x => x.propriedade) })

/** The account number the sandbox gives an account of its own (agência 0001, conta its id), as pay-outs show it. */
const OWN_AGENCIA = '0001'

export class CobRService implements Lifecycle {
  /** Each recurrence's charges (their ids, oldest first): what a new charge is checked against, and what the control plane shows of a recurrence. */
  private readonly byRec: RecordLists<'cobrs'>
  /** Each account's charges (their ids, oldest first): GET /cobr's list. */
  private readonly made: RecordLists<'cobrs'>
  /** The live charges with a debit ahead (by account): what the next debit is looked for among. */
  private readonly debiting: KeyIndex<'cobrs'>
  /** A live charge's next step (the instruction, a debit, an expiry): one job per charge, whatever its step. */
  private readonly steps: DueJobs<'cobrs'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: CobRDeps) {
    deps.recurrences.onEnded(rec => this.recEnded(rec))
    this.byRec = new RecordLists(deps.store, 'cobrs', cobr => cobr.idRec)
    this.made = new RecordLists(deps.store, 'cobrs', cobr => String(cobr.accountId), cobr => cobr.createdAt)
    this.debiting = new KeyIndex(deps.store, 'cobrs', { keys: cobr => String(cobr.id), scope: cobr => cobr.accountId, holds: cobr => this.debitAt(cobr) !== null })
    this.steps = new DueJobs(deps.store, deps.scheduler, 'cobrs', {
      purpose: 'cobr-step',
      kind: cobr => `cobr-${this.stepOf(cobr)!.kind}`,
      dueAt: cobr => this.stepOf(cobr)?.at,
      run: cobr => this.run(cobr.id),
    })
    this.derived = [this.byRec, this.made, this.debiting, this.steps]
  }

  private get store () { return this.deps.store }
  private now (): number { return this.deps.clock.now() }
  private today (): IsoDate { return saoPauloTime(this.now()).day }

  // ---- the receiver's API ------------------------------------------------------------------------

  /**
   * PUT /cobr/{txid} and POST /cobr (txid null): a charge of an approved recurrence, CRIADA, checked
   * alone and against its recurrence and its other charges (every violation at once).
   */
  create (account: Account, txid: string | null, body: unknown, scenarios: AppliedScenario[]): CobR {
    const hoje = this.today()
    const parsed = parseCobRRequest(body, { criacao: hoje })
    if (!parsed.ok) throw violations(parsed.violacoes)
    const request = parsed.request
    const found: Violacao[] = []
    if (this.namesAnotherAccount(account, request.recebedor)) found.push(COBR_VIOLACOES.contaDeOutroRecebedor())
    // A txid names one charge of the account, whatever its kind (cob, cobv, cobr).
    if (txid !== null && this.store.chargeOfTxid(account.id, txid) !== undefined) found.push(COBR_VIOLACOES.txidEmUso(txid))
    const rec = this.deps.recurrences.recurrence(account.id, request.idRec)
    if (rec === null) found.push(COBR_VIOLACOES.recInexistente(request.idRec))
    else {
      const outras = this.ofRec(account.id, request.idRec).map(c => ({ status: c.status, dataDeVencimento: c.calendario.dataDeVencimento }))
      found.push(...checkCobRAgainstRec(request, { status: rec.status, calendario: rec.terms.calendario, valor: rec.terms.valor }, outras, { hoje }))
    }
    if (found.length > 0 || rec === null) throw violations(found)
    // One unit with no await since the checks: concurrent requests for one txid create exactly one charge.
    return this.store.transact(() => {
      if (txid !== null && this.store.chargeOfTxid(account.id, txid) !== undefined) throw violations([COBR_VIOLACOES.txidEmUso(txid)])
      let id = txid ?? newTxid(this.deps.rng, 32)
      if (txid === null) while (this.store.chargeOfTxid(account.id, id) !== undefined) id = newTxid(this.deps.rng, 32)
      const now = iso(this.now())
      const record: Mutable<CobR> = {
        id: this.store.nextSeq('cobr'),
        accountId: account.id,
        txid: id,
        idRec: request.idRec,
        criacao: hoje,
        createdAt: now,
        ...(request.infoAdicional !== undefined ? { infoAdicional: request.infoAdicional } : {}),
        calendario: { ...request.calendario },
        valor: { ...request.valor },
        ajusteDiaUtil: request.ajusteDiaUtil,
        recebedor: { ...request.recebedor },
        ...(request.devedor !== undefined ? { devedor: { ...request.devedor } } : {}),
        politicaRetentativa: rec.terms.politicaRetentativa,
        status: 'CRIADA',
        atualizacao: [{ status: 'CRIADA', data: now }],
        tentativas: [],
        ...(scenarios.length > 0 ? { scenarios } : {}),
      }
      const added = this.store.add('cobrs', record)
      this.byRec.add(added)
      this.made.add(added)
      this.schedule(added)
      return this.store.data.cobrs[added.id]
    })
  }

  /** GET /cobr/{txid}: the account's charge; 404 CobRNaoEncontrado for any other. */
  get (account: Account, txid: string): CobR {
    const cobr = this.find(account.id, txid)
    if (cobr === undefined) throw new Refusal('NOT_FOUND', `Cobrança recorrente com txid ${txid} não encontrada`)
    return cobr
  }

  /** PATCH /cobr/{txid} (CobRRevisada): status CANCELADA cancels the charge before its first attempt's date; an empty revision changes nothing. */
  revise (account: Account, txid: string, body: unknown): CobR {
    const cobr = this.get(account, txid)
    const revision = parseCobRRevision(body, { ...this.dates(cobr), status: cobr.status }, { hoje: this.today() })
    if (!revision.ok) throw violations(revision.violacoes)
    if (!revision.cancelar) return cobr
    return this.store.transact(() => this.cancel(cobr.id, 'USUARIO_RECEBEDOR', { cancelamento: CANCELAMENTO.cobr.USUARIO_RECEBEDOR }))
  }

  /**
   * POST /cobr/{txid}/retentativa/{data}: a retry (NTAG) on `data`, within the policy and window of its
   * recurrence. The payer's PSP schedules it (AGENDADA), or, with COBR_RETRY_REFUSED, refuses it at once.
   */
  retry (account: Account, txid: string, data: string, scenarios: AppliedScenario[]): CobR {
    const cobr = this.get(account, txid)
    const context = this.retryContext(cobr)
    const found = checkRetentativa(data, context)
    if (found.length > 0) throw violations(found)
    const before = changesOf(cobr)
    return this.store.transact(() => {
      const id = cobr.id
      const at = iso(this.now())
      this.store.update('cobrs', id, d => {
        d.retentativaAte = undefined
        d.tentativas.push(this.newTentativa(d, data, 'NTAG', at, scenarios))
      })
      const index = this.store.data.cobrs[id].tentativas.length - 1
      if (hasScenario(scenarios, 'COBR_RETRY_REFUSED')) {
        const codigo = scenarioCodigo(scenarios, 'COBR_RETRY_REFUSED') ?? REJEICAO_RETENTATIVA
        this.endAttempt(id, index, { status: 'REJEITADA', rejeicao: rejeicaoOf(codigo) }, 'PSP_PAGADOR')
      } else {
        this.moveAttempt(id, index, 'AGENDADA', 'PSP_PAGADOR')
      }
      return this.settle(id, before)
    })
  }

  /** The account's charges created within the range, oldest first (GET /cobr lists them). */
  ofAccount (accountId: number, created: InstantRange): CobR[] {
    return this.made.within(String(accountId), created)
  }

  /** A recurrence's charges, oldest first: for the control plane. */
  ofRecurrence (accountId: number, idRec: string): CobR[] {
    return this.ofRec(accountId, idRec)
  }

  /** How many charges a recurrence has, in all and by status: what the control plane's list shows of them. */
  summaryOf (accountId: number, idRec: string): CobRSummary {
    const byStatus: Partial<Record<CobRStatus, number>> = {}
    const charges = this.ofRec(accountId, idRec)
    for (const c of charges) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1
    return { total: charges.length, byStatus }
  }

  // ---- the control plane -------------------------------------------------------------------------

  /**
   * Forces what the next debit of a live charge comes to, whatever its scenarios and the payer's
   * simulation say (the control plane, `POST /__sandbox/accounts/{id}/cobr/{txid}/next-debit`).
   */
  forceNextDebit (accountId: number, txid: string, outcome: ForcedOutcome, codigo?: CobRRejeicaoCodigo): CobR {
    const cobr = this.find(accountId, txid)
    if (cobr === undefined) throw new Refusal('NOT_FOUND', `Recurring charge ${txid} of account ${accountId} not found`, { en: `Recurring charge ${txid} of account ${accountId} not found` })
    if (isFinal(cobr.status)) throw new Refusal('TRANSACTION_NOT_PENDING', `The recurring charge is ${cobr.status}: no debit is left to force`, { en: `The recurring charge is ${cobr.status}: no debit is left to force` })
    return this.store.transact(() => {
      this.store.patch('cobrs', cobr.id, d => { d.proximoDebito = codigo !== undefined ? { outcome, codigo } : { outcome } })
      return this.store.data.cobrs[cobr.id]
    })
  }

  /** The next debit of a live charge (of one account, when given): what `clock next-due` advances to. */
  nextDebit (accountId?: number): NextDebit | null {
    let next: { cobr: CobR, at: number } | null = null
    for (const cobr of this.debiting.indexed(accountId)) {
      const at = this.debitAt(cobr)
      if (at !== null && (next === null || at < next.at || (at === next.at && cobr.id < next.cobr.id))) next = { cobr, at }
    }
    return next === null ? null : { accountId: next.cobr.accountId, txid: next.cobr.txid, at: iso(next.at) }
  }

  /** When a live charge's next debit runs: its pending attempt's, or, not sent yet, its first attempt's. */
  private debitAt (cobr: CobR): number | null {
    if (isFinal(cobr.status)) return null
    const pending = cobr.tentativas.find(isPending)
    if (pending !== undefined) return pending.semResposta === true ? null : debitInstant(pending)
    return cobr.status === 'CRIADA' ? debitInstant({ dataLiquidacao: cobrSettlementDate(this.dates(cobr)) }) : null
  }

  // ---- the timed steps ---------------------------------------------------------------------------

  /** The next step of a charge, derived from its record; null for a final one or one waiting on nobody. */
  private stepOf (cobr: CobR): Step | null {
    if (isFinal(cobr.status)) return null
    const pending = cobr.tentativas.find(isPending)
    if (pending !== undefined) {
      return pending.semResposta === true
        ? { kind: 'no-answer', at: dayStart(addCalendarDays(pending.dataLiquidacao, 1)) }
        : { kind: 'debit', at: debitInstant(pending) }
    }
    if (cobr.status === 'CRIADA') {
      const instruction = dayStart(cobrInstructionDate(cobr.calendario.dataDeVencimento, cobr.criacao))
      return { kind: 'instruction', at: Math.max(instruction, Date.parse(cobr.createdAt)) }
    }
    if (cobr.retentativaAte !== undefined) return { kind: 'expiry', at: dayStart(addCalendarDays(cobr.retentativaAte, 1)) }
    return null
  }

  /** Stores the charge's next due time and schedules its step (inside a unit); the previous job is dropped. */
  private schedule (cobr: CobR): void {
    this.keepDueAt(cobr)
    this.steps.follow(cobr)
    this.debiting.follow(cobr)
  }

  /** The charge keeps when its next step is due, so a restart reschedules it. */
  private keepDueAt (cobr: CobR): void {
    const step = this.stepOf(cobr)
    const dueAt = step === null ? undefined : iso(step.at)
    if (cobr.dueAt !== dueAt) this.store.patch('cobrs', cobr.id, d => { d.dueAt = dueAt })
  }

  /** A step's job: the charge looked up again, its step done if it is (still) due. */
  private run (id: number): void {
    const cobr = this.store.data.cobrs[id]
    const step = cobr === undefined ? null : this.stepOf(cobr)
    if (step === null || step.at > this.now()) return
    const before = changesOf(cobr)
    const rec = this.deps.recurrences.recurrence(cobr.accountId, cobr.idRec)
    this.store.transact(() => {
      // Its recurrence's end cancels the charge at once; checked again here, where money would move.
      if ((step.kind === 'instruction' || step.kind === 'debit') && rec?.status !== 'APROVADA') {
        this.cancelWithRec(id, rec)
        return
      }
      switch (step.kind) {
        case 'instruction': this.instruct(id); break
        case 'debit': this.debit(id); break
        case 'no-answer': this.unanswered(id); break
        case 'expiry': this.move(id, 'EXPIRADA', 'PSP_RECEBEDOR')
      }
      this.settle(id, before)
    })
  }

  /**
   * The instruction reaches the payer's PSP, which activates the charge and schedules its first attempt
   * on the settlement date, or rejects a charge above the payer's own maximum (AM02).
   */
  private instruct (id: number): void {
    const cobr = this.store.data.cobrs[id]
    const rec = this.deps.recurrences.recurrence(cobr.accountId, cobr.idRec)!
    const cents = hundredths(cobr.valor.original) ?? 0
    if (cobrValorFits(recValueRule(rec.terms.valor), cents, rec.valorMaximoPagadorCents) === 'ACIMA_DO_MAXIMO_DO_PAGADOR') {
      this.move(id, 'REJEITADA', 'PSP_PAGADOR', { rejeicao: rejeicaoOf('AM02') })
      return
    }
    this.move(id, 'ATIVA', 'PSP_PAGADOR')
    const at = iso(this.now())
    this.store.update('cobrs', id, d => { d.tentativas.push(this.newTentativa(d, cobrSettlementDate(this.dates(d)), 'AGND', at, d.scenarios ?? [])) })
    this.moveAttempt(id, this.store.data.cobrs[id].tentativas.length - 1, 'AGENDADA', 'PSP_PAGADOR')
  }

  /** An attempt's debit on its date: what the payer's PSP answers, applied. */
  private debit (id: number): void {
    const cobr = this.store.data.cobrs[id]
    const index = cobr.tentativas.findIndex(isPending)
    const tentativa = cobr.tentativas[index]
    const debit = this.debitOf(cobr, tentativa)
    // The morning found no funds: the payer's PSP tries again at 18:00 (EVENING_DEBIT_TIME), the attempt
    // still AGENDADA; a lack of funds forced on it holds for the evening too, unless forced otherwise.
    const evening = debit.outcome === 'INSUFFICIENT_FUNDS' && tentativa.semSaldo !== true
    if (cobr.proximoDebito !== undefined && !evening) this.store.patch('cobrs', id, d => { d.proximoDebito = undefined })
    switch (debit.outcome) {
      case 'PAID': {
        const rec = this.deps.recurrences.recurrence(cobr.accountId, cobr.idRec)
        const pix = this.deps.incoming.receive(cobr.accountId, {
          amountCents: hundredths(cobr.valor.original) ?? 0,
          payer: payerOf(rec),
          endToEndId: tentativa.endToEndId,
          txid: cobr.txid,
          scenarios: cobr.scenarios ?? [],
        })
        // The receiving account cannot hold the money: the PIX does not settle.
        if (pix === null) return this.endAttempt(id, index, { status: 'REJEITADA', rejeicao: { codigo: 'AB10', descricao: 'Transação interrompida: a conta do usuário recebedor não pode receber o valor.' } }, 'PSP_PAGADOR')
        this.store.patch('cobrs', id, d => { d.pixId = pix.id })
        return this.endAttempt(id, index, { status: 'PAGA' }, 'PSP_PAGADOR')
      }
      case 'REFUSED': return this.endAttempt(id, index, { status: 'REJEITADA', rejeicao: debit.rejeicao }, 'PSP_PAGADOR')
      case 'INSUFFICIENT_FUNDS':
        if (!evening) return this.endAttempt(id, index, { status: 'EXPIRADA' }, 'PSP_PAGADOR')
        this.store.update('cobrs', id, d => { d.tentativas[index].semSaldo = true })
        return
      case 'NO_ANSWER': this.store.update('cobrs', id, d => { d.tentativas[index].semResposta = true })
    }
  }

  /** The payer's PSP never answered the attempt: it expires at the end of its day. */
  private unanswered (id: number): void {
    const index = this.store.data.cobrs[id].tentativas.findIndex(isPending)
    this.endAttempt(id, index, { status: 'EXPIRADA' }, 'PSP_RECEBEDOR')
  }

  /** What a debit comes to: the control plane's forced outcome, else the attempt's scenario, else the simulated payer's answer. */
  private debitOf (cobr: CobR, tentativa: Tentativa): Debit {
    const forced = cobr.proximoDebito
    if (forced !== undefined) {
      return forced.outcome === 'REFUSED' ? { outcome: 'REFUSED', rejeicao: rejeicaoOf(forced.codigo ?? REJEICAO_RECUSA) } : { outcome: forced.outcome }
    }
    const scenarios = tentativa.scenarios
    if (hasScenario(scenarios, 'COBR_DEBIT_REFUSED')) return { outcome: 'REFUSED', rejeicao: rejeicaoOf(scenarioCodigo(scenarios, 'COBR_DEBIT_REFUSED') ?? REJEICAO_RECUSA) }
    if (hasScenario(scenarios, 'COBR_INSUFFICIENT_FUNDS')) return { outcome: 'INSUFFICIENT_FUNDS' }
    if (hasScenario(scenarios, 'COBR_NO_ANSWER')) return { outcome: 'NO_ANSWER' }
    switch (this.deps.payers.debitAnswer(cobr.accountId, cobr.idRec, tentativa.dataLiquidacao)) {
      case 'PAGA': return { outcome: 'PAID' }
      case 'REJEITADA': return { outcome: 'REFUSED', rejeicao: rejeicaoOf(REJEICAO_RECUSA) }
      case 'REJEITADA_SALDO': return { outcome: 'INSUFFICIENT_FUNDS' }
      case 'SEM_RESPOSTA': return { outcome: 'NO_ANSWER' }
    }
  }

  /**
   * An attempt ends (PAGA, REJEITADA with its code, EXPIRADA), and its charge follows: CONCLUIDA,
   * REJEITADA for good, EXPIRADA, or ATIVA waiting for a retry (cobr.ts, `cobrAfterAttempt`).
   */
  private endAttempt (id: number, index: number, resultado: TentativaResultado, by: Ator): void {
    this.moveAttempt(id, index, resultado.status, by, resultado.status === 'REJEITADA' ? resultado.rejeicao : undefined)
    const after: CobRAfterAttempt = cobrAfterAttempt(this.retryContext(this.store.data.cobrs[id]), resultado)
    switch (after.status) {
      case 'CONCLUIDA': return this.move(id, 'CONCLUIDA', 'PSP_PAGADOR')
      case 'REJEITADA': return this.move(id, 'REJEITADA', 'PSP_PAGADOR', { rejeicao: after.rejeicao })
      case 'EXPIRADA': return this.move(id, 'EXPIRADA', 'PSP_RECEBEDOR')
      case 'ATIVA': this.store.patch('cobrs', id, d => { d.retentativaAte = after.retentativaAte })
    }
  }

  /**
   * After a step or a request: the next step scheduled, and the receiver told when a status of the
   * charge or of an attempt changed since `before` (a debit left unanswered changes none).
   */
  private settle (id: number, before: number): CobR {
    const cobr = this.store.data.cobrs[id]
    this.schedule(cobr)
    const now = this.store.data.cobrs[id]
    if (changesOf(now) === before) return now
    // The charge's txid names its deliveries in the log (`transactionId`); its creation's delivery faults bend them.
    this.deps.events.emit({ kind: 'recurring-charge-changed', accountId: now.accountId, id: now.id, txid: now.txid, ...(now.scenarios !== undefined ? { scenarios: now.scenarios } : {}) })
    return now
  }

  // ---- moves -------------------------------------------------------------------------------------

  /** The charge to `status` by `by` (rec-lifecycle.ts's table; a move it refuses is a bug, thrown). */
  private move (id: number, status: CobRStatus, by: Ator, encerramento?: CobREncerramento): void {
    const cobr = this.store.data.cobrs[id]
    const moved = moveCobR(cobr.status, status, by, encerramento)
    if (!moved.ok) throw new Error(`cobr ${cobr.txid}: ${cobr.status} -> ${status} by ${by} refused (${moved.reason})`)
    const data = iso(this.now())
    this.store.update('cobrs', id, d => {
      d.status = status
      d.atualizacao.push({ status, data })
      if (encerramento !== undefined) d.encerramento = structuredClone(encerramento) as Mutable<CobREncerramento>
      if (isFinal(status)) {
        d.retentativaAte = undefined
        d.proximoDebito = undefined
      }
    })
  }

  private moveAttempt (id: number, index: number, status: TentativaStatus, by: Ator, rejeicao?: CobRRejeicao): void {
    const tentativa = this.store.data.cobrs[id].tentativas[index]
    const moved = moveTentativa(tentativa.status, status, by, rejeicao === undefined ? undefined : { ...rejeicao })
    if (!moved.ok) throw new Error(`tentativa ${tentativa.endToEndId}: ${tentativa.status} -> ${status} by ${by} refused (${moved.reason})`)
    const data = iso(this.now())
    this.store.update('cobrs', id, d => {
      const t = d.tentativas[index]
      t.status = status
      t.atualizacao.push({ status, data })
      t.semResposta = undefined
      t.semSaldo = undefined
      if (rejeicao !== undefined) t.rejeicao = { ...rejeicao }
    })
  }

  /** Cancels a live charge and its pending attempts (inside a unit): by its receiver, or with its recurrence. */
  private cancel (id: number, by: Ator, encerramento: Extract<CobREncerramento, { cancelamento: unknown }>): CobR {
    const before = changesOf(this.store.data.cobrs[id])
    this.store.data.cobrs[id].tentativas.forEach((t, index) => { if (isPending(t)) this.moveAttempt(id, index, 'CANCELADA', by) })
    this.move(id, 'CANCELADA', by, encerramento)
    return this.settle(id, before)
  }

  /**
   * A recurrence ended (inside its unit): its authorization covers no debit any more, so every charge
   * of it not yet settled is cancelled, with the attempts and retries still pending.
   */
  private recEnded (recurrence: RecurrenceView): void {
    for (const c of cobrsToCancelWithRec(this.ofRec(recurrence.accountId, recurrence.idRec))) this.cancelWithRec(c.id, recurrence)
  }

  /** Cancels a live charge whose recurrence is not (or no longer) APROVADA, as its end says (CCLD). */
  private cancelWithRec (id: number, recurrence: RecurrenceView | null): CobR {
    const cancelamento = cancelamentoPorRecEncerrada(recurrence)
    return this.cancel(id, cancelamento.solicitante, { cancelamento })
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private newTentativa (cobr: Draft<CobR>, dataLiquidacao: IsoDate, tipo: TentativaTipo, at: string, scenarios: readonly AppliedScenario[]): Mutable<Tentativa> {
    // The receiver's PSP names the payment it asks for: its own ISPB leads the endToEndId.
    const ispb = this.store.account(cobr.accountId)?.ispb ?? '00000000'
    return {
      dataLiquidacao,
      tipo,
      endToEndId: endToEndId(ispb, this.now(), this.deps.rng),
      status: 'SOLICITADA',
      atualizacao: [{ status: 'SOLICITADA', data: at }],
      ...(scenarios.length > 0 ? { scenarios: scenarios.map(s => ({ name: s.name, params: { ...s.params } })) } : {}),
    }
  }

  private dates (cobr: { calendario: { dataDeVencimento: IsoDate }, ajusteDiaUtil: boolean }) {
    return { dataDeVencimento: cobr.calendario.dataDeVencimento, ajusteDiaUtil: cobr.ajusteDiaUtil }
  }

  /** What the retry rules need of a charge: its policy, dates, attempts, and its recurrence's next due date. */
  private retryContext (cobr: CobR): CobRRetryContext {
    const rec = this.deps.recurrences.recurrence(cobr.accountId, cobr.idRec)
    return {
      politicaRetentativa: cobr.politicaRetentativa,
      recStatus: rec === null ? null : rec.status,
      cobr: { ...this.dates(cobr), status: cobr.status, tentativas: cobr.tentativas.map(t => ({ dataLiquidacao: t.dataLiquidacao, tipo: t.tipo, status: t.status })) },
      proximoVencimento: rec === null ? null : recNextDueDate(rec.terms.calendario, cobr.calendario.dataDeVencimento),
      hoje: this.today(),
    }
  }

  /**
   * Whether `recebedor` names another account of this sandbox (agência 0001, or none, and the conta of
   * another account's id). Any other account number is taken as the receiver's own: the sandbox keeps
   * no bank details of its accounts, and API Pix's examples name accounts of their own.
   */
  private namesAnotherAccount (account: Account, recebedor: { conta: string, agencia?: string }): boolean {
    if (recebedor.agencia !== undefined && recebedor.agencia !== OWN_AGENCIA) return false
    const conta = /^0*(\d{1,15})$/.exec(recebedor.conta)
    const other = conta === null ? undefined : this.store.account(Number(conta[1]))
    return other !== undefined && other.id !== account.id
  }

  /** The account's charge of that txid, if any. */
  find (accountId: number, txid: string): CobR | undefined {
    const charge = this.store.chargeOfTxid(accountId, txid)
    return charge === undefined || 'kind' in charge ? undefined : charge
  }

  /** A recurrence's charges, oldest first (an idRec is unique across accounts; the account is checked all the same). */
  private ofRec (accountId: number, idRec: string): CobR[] {
    return this.byRec.listed(idRec).filter(cobr => cobr.accountId === accountId)
  }

  // ---- lifecycle ---------------------------------------------------------------------------------

  /**
   * After a start with --data or a snapshot import (the lists and the steps rebuilt already): a live
   * charge whose recurrence is no longer APROVADA (a document written before its end cancelled it) is
   * cancelled, so no debit comes back to life; every other keeps its due time in line with its step.
   */
  afterLoad (): void {
    for (const cobr of Object.values(this.store.data.cobrs)) {
      const rec = this.deps.recurrences.recurrence(cobr.accountId, cobr.idRec)
      if (!isFinal(cobr.status) && rec?.status !== 'APROVADA') this.cancelWithRec(cobr.id, rec)
      else this.keepDueAt(cobr)
    }
  }
}

/** How many status changes a charge and its attempts have had: what its receiver is told of. */
function changesOf (cobr: CobR): number {
  return cobr.tentativas.reduce((n, t) => n + t.atualizacao.length, cobr.atualizacao.length)
}

/** The rejection code a scenario names (`COBR_DEBIT_REFUSED;codigo=AC05`), if any. */
function scenarioCodigo (scenarios: readonly AppliedScenario[] | undefined, name: 'COBR_DEBIT_REFUSED' | 'COBR_RETRY_REFUSED'): CobRRejeicaoCodigo | undefined {
  return scenarios?.find(s => s.name === name)?.params.codigo as CobRRejeicaoCodigo | undefined
}

/** Who pays a recurrence's charge: its debtor, at the payer's PSP once a journey named it. */
function payerOf (rec: RecurrenceView | null): { name: string, document: string, ispb: string } {
  const devedor = rec?.terms.vinculo.devedor
  const pagador = rec?.pagador
  const document = pagador !== undefined ? ('cpf' in pagador ? pagador.cpf : pagador.cnpj) : devedor !== undefined ? ('cpf' in devedor ? devedor.cpf : devedor.cnpj) : ''
  return { name: devedor?.nome ?? 'PAGADOR SANDBOX', document, ispb: pagador?.ispbParticipante ?? '00000000' }
}

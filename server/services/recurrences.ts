import { parseLocalBound, saoPauloTime } from '../domain/calendar.js'
import { pagadorMaximoNoPiso, pagadorMaximoValido } from '../domain/cobr.js'
import { centsToString } from '../domain/money.js'
import { randomAlnum } from '../domain/ids.js'
import { newLocationToken, recLocationAt, recTokenOf } from '../domain/payload-locations.js'
import { formatRecId, parseRecTerms, REC_FINAL_STATUSES, REC_VIOLACOES, recValueRule, reviseRecTerms, type Jornada, type RecStatus, type Violacao } from '../domain/rec.js'
import { contractCode, recurrenceCode, withRecurrence } from '../domain/rec-codes.js'
import { CANCELAMENTO, moveRec, moveSolicRec, recAfterSolicRec, type Ator, type RecEncerramento } from '../domain/rec-lifecycle.js'
import { checkSolicRecForRec, formatSolicRecId, parseSolicRecRequest, parseSolicRecRevision, SOLICREC_ACTIVE_STATUSES, solicRecExpiresAt, type SolicRecStatus } from '../domain/solicrec.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { AccountKeys, CompositePayment, ContractCodePayment, ContractCodes, Lifecycle, Ports, RecPagador, RecurrenceActivations, RecurrenceCharges, Recurrences, RecurrenceView } from '../ports.js'
import type { Account, RecLocation, Recurrence, SolicRec } from '../store/state.js'
import { DueJobs, KeyIndex, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { hasScenario, scenarioParam } from '../../scenarios/resolver.js'
import { iso } from './history.js'
import type { PayerSimulation } from './simulated-payers.js'

/**
 * Pix Automático's recurrences in API Pix 2.9.0 (docs/api-pix.md, Pix Automático): the receiver's
 * recurrences (`/rec`), their payload locations (`/locrec`, served at `<host>/qr/v2/rec/<token>`)
 * and confirmation requests (`/solicrec`, journey 1), and the payer's side as the sandbox simulates
 * it: a request is sent, received and answered on the virtual clock as the payer's behaviour says
 * (PayerSimulation), or steered through the control plane (approve, reject, expire, cancel).
 * Owns `recurrences`, `recLocations` and `solicRecs`.
 */

/** How long each step of a confirmation request takes on the virtual clock: sent, received, answered. */
export const SOLICREC_STEP_MS = 1000

/** The payer's PSP a recurrence names when nobody said which (journeys 2 and 3, steered without one). */
export const SIMULATED_PAYER_ISPB = '99999999'

const DAY_MS = 86_400_000

/** How the control plane approves a recurrence for its payer. */
export interface Approval {
  jornada?: Jornada
  pagador?: RecPagador
  /** The payer's maximum per charge, for a recurrence without a fixed value. */
  valorMaximoCents?: number
}

export type RecurrenceDeps = Pick<Ports, 'store' | 'clock' | 'rng' | 'scheduler' | 'events'> & {
  payers: PayerSimulation
  /** The charges journeys 3 and 4 compose with. */
  charges: RecurrenceCharges
  /** Where the sandbox's BR Codes say the receiver is. */
  merchantCity: string
  /** Which keys an account holds: the static code of a contract pays one of the receiver's. */
  keys: AccountKeys
}

/** API Pix's violations as a refusal: each reason with the property it is about. */
export function violations (v: readonly Violacao[]): Refusal {
  return invalidRequest(v.map(x => x.razao), { fields: v.map(x => x.propriedade) })
}

const today = (ms: number) => saoPauloTime(ms).day

export class RecurrenceService implements Recurrences, Lifecycle {
  private readonly endedListeners: Array<(ended: RecurrenceView) => void> = []
  /** Token (the last segment of a recurrence's location) to location id. */
  private readonly byToken: KeyIndex<'recLocations'>
  /** Each account's locations in the order they were made: GET /locrec's list. */
  private readonly locationsMade: RecordLists<'recLocations'>
  /** The recurrences in the order they were made, of every account (`all`) and of each (its id): what the control plane pages through. */
  private readonly made: RecordLists<'recurrences'>
  /** Each recurrence's confirmation requests (idSolicRec) in the order they were made. */
  private readonly requestsOf: RecordLists<'solicRecs'>
  /** REC_PAYER_PSP_CANCELS: an APROVADA recurrence cancelled by the payer's PSP at its `payerCancelsAt`. */
  private readonly payerCancels: DueJobs<'recurrences'>
  /** A recurrence still CRIADA or APROVADA expires at its `dueAt`, after its dataFinal. */
  private readonly expiry: DueJobs<'recurrences'>
  /** A confirmation request's next step (sent, received, answered, expired), at its `dueAt`. */
  private readonly solicSteps: DueJobs<'solicRecs'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: RecurrenceDeps) {
    const { store, scheduler } = deps
    this.byToken = new KeyIndex(store, 'recLocations', { keys: loc => recTokenOf(loc.location) ?? undefined })
    this.locationsMade = new RecordLists(store, 'recLocations', loc => String(loc.accountId), loc => loc.createdAt)
    this.made = new RecordLists(store, 'recurrences', rec => ['all', String(rec.accountId)], rec => rec.createdAt)
    this.requestsOf = new RecordLists(store, 'solicRecs', s => s.idRec)
    this.payerCancels = new DueJobs(store, scheduler, 'recurrences', {
      purpose: 'rec-payer-cancels',
      dueAt: rec => rec.payerCancelsAt !== undefined && rec.status === 'APROVADA' ? Date.parse(rec.payerCancelsAt) : undefined,
      run: rec => this.cancelByPayerPsp(rec.idRec),
    })
    this.expiry = new DueJobs(store, scheduler, 'recurrences', {
      purpose: 'rec-expiry',
      dueAt: rec => rec.dueAt !== undefined && (rec.status === 'CRIADA' || rec.status === 'APROVADA') ? Date.parse(rec.dueAt) : undefined,
      run: rec => this.expireAtEnd(rec.idRec),
    })
    this.solicSteps = new DueJobs(store, scheduler, 'solicRecs', {
      purpose: 'solicrec-step',
      dueAt: s => s.dueAt === undefined ? undefined : Date.parse(s.dueAt),
      run: s => this.stepSolic(s.idSolicRec),
    })
    this.derived = [this.byToken, this.locationsMade, this.made, this.requestsOf, this.payerCancels, this.expiry, this.solicSteps]
  }

  private get store () { return this.deps.store }
  private now () { return this.deps.clock.now() }

  // ---- the ports -------------------------------------------------------------------------------

  recurrence (accountId: number, idRec: string): RecurrenceView | null {
    const rec = this.store.data.recurrences[idRec]
    if (rec === undefined || rec.accountId !== accountId) return null
    const { idRec: id, status, terms, ativacao, pagador, valorMaximoPagadorCents, encerramento } = rec
    return structuredClone({
      idRec: id,
      accountId,
      status,
      terms,
      ativacao,
      ...(pagador !== undefined ? { pagador } : {}),
      ...(valorMaximoPagadorCents !== undefined ? { valorMaximoPagadorCents } : {}),
      ...(encerramento !== undefined ? { encerramento } : {}),
    }) as RecurrenceView
  }

  onEnded (listener: (ended: RecurrenceView) => void): void {
    this.endedListeners.push(listener)
  }

  // ---- /rec ------------------------------------------------------------------------------------

  /** POST /rec: a recurrence CRIADA, served at the location `loc` names when it names one. */
  create (account: Account, body: unknown, scenarios: AppliedScenario[] = []): Recurrence {
    const now = this.now()
    const parsed = parseRecTerms(body, { criacao: today(now) })
    if (!parsed.ok) throw violations(parsed.violacoes)
    const terms = parsed.terms
    if (terms.loc !== undefined) this.checkFreeLoc(account, terms.loc)
    return this.store.transact(() => {
      let idRec = this.newRecId(account, terms.politicaRetentativa, now)
      while (this.store.data.recurrences[idRec] !== undefined) idRec = this.newRecId(account, terms.politicaRetentativa, now)
      const at = iso(now)
      const rec = this.store.add('recurrences', {
        idRec,
        accountId: account.id,
        status: 'CRIADA',
        terms,
        ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
        atualizacao: [{ status: 'CRIADA', data: at }],
        createdAt: at,
        ...(this.expiryOf(terms.calendario.dataFinal) !== undefined ? { dueAt: iso(this.expiryOf(terms.calendario.dataFinal)!) } : {}),
        ...(scenarios.length > 0 ? { scenarios } : {}),
      })
      if (terms.loc !== undefined) this.store.patch('recLocations', terms.loc, l => { l.idRec = idRec })
      this.made.add(rec)
      this.follow(rec)
      this.changed(rec)
      return rec
    })
  }

  private newRecId (account: Account, politica: Recurrence['terms']['politicaRetentativa'], now: number): string {
    return formatRecId({ politicaRetentativa: politica, agente: account.ispb, criacao: today(now), sequencial: randomAlnum(this.deps.rng, 11) })
  }

  /** The first instant after a recurrence's last day (São Paulo), when it expires. */
  private expiryOf (dataFinal: string | undefined): number | undefined {
    if (dataFinal === undefined) return undefined
    const end = parseLocalBound(dataFinal, 'end')
    return end === null ? undefined : end + 1
  }

  /** The location a recurrence names by `loc`: the account's, serving no recurrence (the YAML's two violations otherwise). */
  private checkFreeLoc (account: Account, id: number, idRec?: string): void {
    const loc = this.store.data.recLocations[id]
    if (loc === undefined || loc.accountId !== account.id) throw violations([REC_VIOLACOES.locInexistente(id)])
    if (loc.idRec !== undefined && loc.idRec !== idRec && this.store.data.recurrences[loc.idRec] !== undefined) throw violations([REC_VIOLACOES.locEmUso(id)])
  }

  /** The account's recurrence; 404 RecNaoEncontrada for any other. */
  get (account: Account, idRec: string): Recurrence {
    const rec = this.store.data.recurrences[idRec]
    if (rec === undefined || rec.accountId !== account.id) throw new Refusal('NOT_FOUND', `Recorrência ${idRec} não encontrada`)
    return rec
  }

  /** The location serving a recurrence, while it serves it. */
  locationOf (rec: Recurrence): RecLocation | undefined {
    const id = rec.terms.loc
    const loc = id === undefined ? undefined : this.store.data.recLocations[id]
    return loc?.idRec === rec.idRec ? loc : undefined
  }

  /** A recurrence's confirmation requests, oldest first. */
  solicitacoesOf (rec: Recurrence): SolicRec[] {
    const found: SolicRec[] = []
    for (const id of this.requestsOf.of(rec.idRec)) {
      const s = this.store.data.solicRecs[id]
      if (s !== undefined && s.accountId === rec.accountId) found.push(s)
    }
    return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  }

  /**
   * The code of GET /rec/{idRec}'s `dadosQR`: with `txid`, the one that composes the recurrence with
   * that immediate charge (journey 3) or due charge (journey 4); without, the recurrence's own code
   * (journey 2) while it has a location; none without a location.
   */
  codeOf (rec: Recurrence, txid?: string): { jornada: 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4', pixCopiaECola: string } | undefined {
    const account = this.account(rec)
    const loc = this.locationOf(rec)
    if (txid !== undefined) {
      if (loc === undefined) throw invalidRequest(`A recorrência ${rec.idRec} não tem location: nenhum QR composto pode carregá-la`, { fields: ['txid'] })
      const charge = this.deps.charges.chargeCode(account, txid)
      if (charge === undefined) throw new Refusal('NOT_FOUND', `Cobrança ${txid} não encontrada`)
      if (charge.pixCopiaECola === null) throw invalidRequest(`A cobrança ${txid} não tem location: não há QR a compor`, { fields: ['txid'] })
      const jornada = charge.kind === 'COB' ? 'JORNADA_3' as const : 'JORNADA_4' as const
      // RecConsultaInvalida's two violations of GET /rec/{idRec}: a charge of the other journey than
      // the one the recurrence was activated by, or a cob other than the one the receiver named.
      const tipo = rec.ativacao.tipoJornada
      if ((tipo === 'JORNADA_3' || tipo === 'JORNADA_4') && tipo !== jornada) throw invalidRequest(`O parâmetro txid não corresponde a uma cobrança compatível com ativacao.tipoJornada ${tipo}`, { fields: ['txid'] })
      const named = rec.terms.ativacao?.dadosJornada.txid
      if (charge.kind === 'COB' && named !== undefined && named !== txid) throw invalidRequest(`O parâmetro txid corresponde a uma cobrança imediata diferente da informada em ativacao.dadosJornada.txid (${named})`, { fields: ['txid'] })
      return { jornada, pixCopiaECola: withRecurrence(charge.pixCopiaECola, loc.location) }
    }
    if (loc === undefined) return undefined
    return { jornada: 'JORNADA_2', pixCopiaECola: recurrenceCode({ recLocation: loc.location, merchantName: account.name, merchantCity: this.deps.merchantCity }) }
  }

  /** The account's recurrences created within the range, in the order they were made (GET /rec lists them). */
  ofAccount (accountId: number, created: InstantRange): Recurrence[] {
    return this.made.within(String(accountId), created)
  }

  /**
   * The control plane's page of recurrences, of every account or one, the last made first: at most
   * `limit` of those made before the `cursor`-th (the `nextCursor` of the page before, with the same
   * account), and the cursor of the page after while there is one. The cost is the page's, whatever
   * the number of recurrences.
   */
  page (accountId: number | undefined, limit: number, cursor?: number): { recurrences: Recurrence[], nextCursor?: number } {
    const { records, nextCursor } = this.made.newestFirst(accountId === undefined ? 'all' : String(accountId), limit, cursor)
    return { recurrences: records, ...(nextCursor !== undefined ? { nextCursor } : {}) }
  }

  /** PATCH /rec/{idRec}: the receiver revises what RecRevisada allows, and may cancel. */
  revise (account: Account, idRec: string, body: unknown): Recurrence {
    const rec = this.get(account, idRec)
    const revised = reviseRecTerms(rec.terms, body, { status: rec.status, criacao: today(Date.parse(rec.createdAt)) })
    if (!revised.ok) throw violations(revised.violacoes)
    const { terms, cancelar } = revised
    const oldLoc = rec.terms.loc
    if (terms.loc !== undefined && terms.loc !== oldLoc) this.checkFreeLoc(account, terms.loc, idRec)
    return this.store.transact(() => {
      this.store.update('recurrences', idRec, r => {
        r.terms = terms
        const due = this.expiryOf(terms.calendario.dataFinal)
        if (due === undefined) delete r.dueAt
        else r.dueAt = iso(due)
      })
      if (terms.loc !== oldLoc) {
        if (oldLoc !== undefined && this.store.data.recLocations[oldLoc]?.idRec === idRec) this.store.patch('recLocations', oldLoc, l => { delete l.idRec })
        if (terms.loc !== undefined) this.store.patch('recLocations', terms.loc, l => { l.idRec = idRec })
      }
      if (cancelar) this.move(idRec, 'CANCELADA', 'USUARIO_RECEBEDOR', { cancelamento: { ...CANCELAMENTO.rec.USUARIO_RECEBEDOR } })
      const after = this.store.data.recurrences[idRec]
      this.follow(after)
      return after
    })
  }

  /**
   * A recurrence's move, in the unit of whoever makes it: its status and its history, what a final
   * status ends (the requests still waiting, the expiry), and word of it to the listeners.
   */
  private move (idRec: string, to: RecStatus, by: Ator, encerramento?: RecEncerramento, approval?: Pick<Recurrence, 'ativacao' | 'pagador' | 'valorMaximoPagadorCents'>): void {
    const rec = this.store.data.recurrences[idRec]
    const moved = moveRec(rec.status, to, by, encerramento)
    if (!moved.ok) {
      throw new Refusal('REC_INVALID_TRANSITION', `A recorrência ${idRec} está ${rec.status}: não pode passar a ${to}`, { en: `Recurrence ${idRec} is ${rec.status}: it cannot become ${to}` })
    }
    const at = iso(this.now())
    this.store.update('recurrences', idRec, r => {
      r.status = moved.status
      r.atualizacao.push({ status: moved.status, data: at })
      if (moved.encerramento !== undefined) r.encerramento = structuredClone(moved.encerramento)
      if (approval !== undefined) {
        r.ativacao = structuredClone(approval.ativacao)
        if (approval.pagador !== undefined) r.pagador = structuredClone(approval.pagador)
        if (approval.valorMaximoPagadorCents !== undefined) r.valorMaximoPagadorCents = pagadorMaximoNoPiso(recValueRule(r.terms.valor), approval.valorMaximoPagadorCents)
      }
      if (moved.status !== 'APROVADA') {
        delete r.dueAt
        delete r.payerCancelsAt
      } else if (hasScenario(r.scenarios, 'REC_PAYER_PSP_CANCELS')) {
        r.payerCancelsAt = iso(this.now() + scenarioParam(r.scenarios, 'REC_PAYER_PSP_CANCELS', 'ms', DAY_MS))
      }
    })
    const after = this.store.data.recurrences[idRec]
    if (moved.status !== 'CRIADA' && moved.status !== 'APROVADA') {
      // A recurrence that ended ends the requests still waiting for its payer.
      for (const s of this.solicitacoesOf(after)) {
        if (SOLICREC_ACTIVE_STATUSES.includes(s.status)) this.moveSolic(s.idSolicRec, moved.status === 'CANCELADA' ? 'CANCELADA' : 'EXPIRADA', moved.status === 'CANCELADA' ? 'USUARIO_RECEBEDOR' : 'PSP_RECEBEDOR', true)
      }
    }
    if (REC_FINAL_STATUSES.includes(moved.status)) {
      // Its authorization ended: what was scheduled under it goes with it, in this unit.
      const ended = this.recurrence(after.accountId, idRec)!
      for (const listener of this.endedListeners) listener(ended)
    }
    if (moved.status === 'APROVADA' && after.payerCancelsAt !== undefined) this.payerCancels.follow(after)
    this.changed(after)
  }

  /** A recurrence was created or moved: the dialects notify it. */
  private changed (rec: Recurrence): void {
    this.deps.events.emit({ kind: 'recurrence-changed', accountId: rec.accountId, idRec: rec.idRec, ...(rec.scenarios !== undefined ? { scenarios: rec.scenarios } : {}) })
  }

  private account (rec: Recurrence | RecLocation | SolicRec): Account {
    return this.store.account(rec.accountId)!
  }

  // ---- /locrec ---------------------------------------------------------------------------------

  /** POST /locrec: a location at `host`, serving no recurrence yet. */
  createLocation (account: Account, host: string): RecLocation {
    return this.store.transact(() => {
      let token = newLocationToken(this.deps.rng)
      while (this.byToken.has(token)) token = newLocationToken(this.deps.rng)
      const loc = this.store.add('recLocations', { id: this.store.nextSeq('locrec'), accountId: account.id, location: recLocationAt(host, token), createdAt: iso(this.now()) })
      this.byToken.follow(loc)
      this.locationsMade.add(loc)
      return loc
    })
  }

  location (account: Account, id: number): RecLocation {
    const loc = this.store.data.recLocations[id]
    if (loc === undefined || loc.accountId !== account.id) throw new Refusal('NOT_FOUND', `Location ${id} não encontrada`)
    return loc
  }

  /** The recurrence a location serves, when it serves one that is still there. */
  served (loc: RecLocation): Recurrence | undefined {
    const rec = loc.idRec === undefined ? undefined : this.store.data.recurrences[loc.idRec]
    return rec !== undefined && rec.accountId === loc.accountId && rec.terms.loc === loc.id ? rec : undefined
  }

  /** The account's locations of recurrences created within the range, in the order they were made (GET /locrec lists them). */
  locationsOf (accountId: number, created: InstantRange): RecLocation[] {
    return this.locationsMade.within(String(accountId), created)
  }

  /** DELETE /locrec/{id}/idRec: the location serves no recurrence, and the recurrence shows no location (its status unchanged). */
  unbindLocation (account: Account, id: number): RecLocation {
    const loc = this.location(account, id)
    if (loc.idRec === undefined) return loc
    const idRec = loc.idRec
    this.store.transact(() => {
      this.store.patch('recLocations', id, l => { delete l.idRec })
      if (this.store.data.recurrences[idRec]?.terms.loc === id) this.store.update('recurrences', idRec, r => { delete r.terms.loc })
    })
    return this.store.data.recLocations[id]
  }

  /** GET <host>/qr/v2/rec/<token>: the recurrence a location serves, as RecPayload, while it can still be approved or is in force. */
  payload (token: string): { status: 'served', rec: Recurrence, loc: RecLocation } | { status: 'not-found' } {
    const loc = this.byToken.record(token)
    const rec = loc === undefined ? undefined : this.served(loc)
    if (loc === undefined || rec === undefined || (rec.status !== 'CRIADA' && rec.status !== 'APROVADA')) return { status: 'not-found' }
    return { status: 'served', rec, loc }
  }

  // ---- /solicrec -------------------------------------------------------------------------------

  /** POST /solicrec: a confirmation request of the account's CRIADA recurrence, sent to the payer's PSP on the virtual clock. */
  request (account: Account, body: unknown): SolicRec {
    const now = this.now()
    const parsed = parseSolicRecRequest(body, { criacao: today(now) })
    if (!parsed.ok) throw violations(parsed.violacoes)
    const { idRec, calendario, destinatario } = parsed.request
    const rec = this.store.data.recurrences[idRec]
    if (rec === undefined || rec.accountId !== account.id) throw new Refusal('NOT_FOUND', `Recorrência ${idRec} não encontrada`)
    const active = checkSolicRecForRec(idRec, this.solicitacoesOf(rec).map(s => s.status))
    if (active.length > 0) throw violations(active)
    if (rec.status !== 'CRIADA') throw violations([{ razao: `A recorrência solicrec.idRec está ${rec.status}: só uma recorrência CRIADA pode ser confirmada.`, propriedade: 'solicrec.idRec', valor: idRec }])
    return this.store.transact(() => {
      let idSolicRec = formatSolicRecId({ agente: account.ispb, criacao: today(now), sequencial: randomAlnum(this.deps.rng, 11) })
      while (this.store.data.solicRecs[idSolicRec] !== undefined) idSolicRec = formatSolicRecId({ agente: account.ispb, criacao: today(now), sequencial: randomAlnum(this.deps.rng, 11) })
      const s = this.store.add('solicRecs', {
        idSolicRec,
        accountId: account.id,
        idRec,
        status: 'CRIADA',
        dataExpiracaoSolicitacao: calendario.dataExpiracaoSolicitacao,
        destinatario,
        atualizacao: [{ status: 'CRIADA', data: iso(now) }],
        createdAt: iso(now),
        dueAt: iso(Math.min(now + SOLICREC_STEP_MS, Date.parse(calendario.dataExpiracaoSolicitacao))),
      })
      this.requestsOf.add(s)
      this.solicSteps.follow(s)
      return s
    })
  }

  solicitation (account: Account, idSolicRec: string): SolicRec {
    const s = this.store.data.solicRecs[idSolicRec]
    if (s === undefined || s.accountId !== account.id) throw new Refusal('NOT_FOUND', `Solicitação ${idSolicRec} não encontrada`)
    return s
  }

  /** PATCH /solicrec/{idSolicRec}: the receiver cancels a request still waiting. */
  cancelSolicitation (account: Account, idSolicRec: string, body: unknown): SolicRec {
    const s = this.solicitation(account, idSolicRec)
    const revision = parseSolicRecRevision(body, s.status)
    if (!revision.ok) throw violations(revision.violacoes)
    this.store.transact(() => this.moveSolic(idSolicRec, 'CANCELADA', 'USUARIO_RECEBEDOR', true))
    return this.store.data.solicRecs[idSolicRec]
  }

  /** A request's move and, for its end, what it does to its recurrence (unless the recurrence's own end moved it). */
  private moveSolic (idSolicRec: string, to: SolicRecStatus, by: Ator, fromRec = false, answer?: { encerramento?: RecEncerramento, approval?: Approval }): void {
    const s = this.store.data.solicRecs[idSolicRec]
    const moved = moveSolicRec(s.status, to, by)
    if (!moved.ok) throw new Refusal('REC_INVALID_TRANSITION', `A solicitação ${idSolicRec} está ${s.status}: não pode passar a ${to}`, { en: `Request ${idSolicRec} is ${s.status}: it cannot become ${to}` })
    const at = iso(this.now())
    this.store.update('solicRecs', idSolicRec, d => {
      d.status = moved.status
      d.atualizacao.push({ status: moved.status, data: at })
      if (!SOLICREC_ACTIVE_STATUSES.includes(moved.status)) delete d.dueAt
    })
    if (fromRec) return
    const effect = recAfterSolicRec(moved.status)
    if (effect === null) return
    const rec = this.store.data.recurrences[s.idRec]
    if (rec?.status !== 'CRIADA') return
    if (effect.status === 'APROVADA') {
      const pagador = answer?.approval?.pagador ?? this.pagadorAt(rec, s.destinatario.ispbParticipante)
      this.move(rec.idRec, 'APROVADA', 'USUARIO_PAGADOR', undefined, { ativacao: effect.ativacao, pagador, valorMaximoPagadorCents: answer?.approval?.valorMaximoCents })
    } else if (effect.status === 'REJEITADA') {
      this.move(rec.idRec, 'REJEITADA', by, answer?.encerramento ?? rejeicao('AP13'))
    } else {
      this.move(rec.idRec, 'EXPIRADA', 'PSP_RECEBEDOR')
    }
  }

  /**
   * When a request expires: its dataExpiracaoSolicitacao, or thirty days after the receiver's PSP sent it
   * (ENVIADA; until then, when it is due to be sent) if sooner (solicrec.ts, `solicRecExpiresAt`).
   */
  private expiresAt (s: SolicRec): number {
    const sent = s.atualizacao.find(a => a.status === 'ENVIADA')
    return solicRecExpiresAt(s.dataExpiracaoSolicitacao, sent !== undefined ? Date.parse(sent.data) : Date.parse(s.createdAt) + SOLICREC_STEP_MS)
  }

  /** The next step of a request on the virtual clock: sent, received, then the simulated payer's answer; expired when `expiresAt` says. */
  private stepSolic (idSolicRec: string): void {
    const s = this.store.data.solicRecs[idSolicRec]
    if (s === undefined || s.dueAt === undefined || Date.parse(s.dueAt) > this.now() || !SOLICREC_ACTIVE_STATUSES.includes(s.status)) return
    const now = this.now()
    const expiry = this.expiresAt(s)
    this.store.transact(() => {
      if (now >= expiry) {
        this.moveSolic(idSolicRec, 'EXPIRADA', 'PSP_RECEBEDOR')
        return
      }
      const rec = this.store.data.recurrences[s.idRec]
      const behaviour = rec === undefined ? undefined : this.deps.payers.behaviourOf(rec)
      const answer = behaviour?.authorization ?? 'APPROVE'
      const silent = hasScenario(rec?.scenarios, 'REC_PAYER_PSP_SILENT')
      if (s.status === 'CRIADA') this.moveSolic(idSolicRec, 'ENVIADA', 'PSP_RECEBEDOR')
      else if (silent) { /* the payer's PSP never acknowledges it: it waits for its expiry */ } else if (s.status === 'ENVIADA') this.moveSolic(idSolicRec, 'RECEBIDA', 'PSP_PAGADOR')
      else if (rec !== undefined && pspRejection(rec) !== undefined) this.moveSolic(idSolicRec, 'REJEITADA', 'PSP_PAGADOR', false, { encerramento: rejeicao(pspRejection(rec)!) })
      else if (answer === 'APPROVE') this.moveSolic(idSolicRec, 'ACEITA', 'USUARIO_PAGADOR', false, { approval: behaviour?.valorMaximoCents !== undefined ? { valorMaximoCents: behaviour.valorMaximoCents } : {} })
      else if (answer === 'REJECT') this.moveSolic(idSolicRec, 'REJEITADA', 'USUARIO_PAGADOR', false, { encerramento: rejeicao(behaviour?.rejectionCode ?? 'AP13') })
      const after = this.store.data.solicRecs[idSolicRec]
      if (!SOLICREC_ACTIVE_STATUSES.includes(after.status)) return
      // A payer who does not answer leaves the request waiting until it expires.
      const waits = silent ? after.status === 'ENVIADA' : after.status === 'RECEBIDA' && answer === 'NO_ANSWER'
      const closes = this.expiresAt(after)
      const next = waits ? closes : Math.min(now + SOLICREC_STEP_MS, closes)
      this.store.update('solicRecs', idSolicRec, d => { d.dueAt = iso(next) })
      this.solicSteps.follow(this.store.data.solicRecs[idSolicRec])
    })
  }

  // ---- the payer's side, by paying a composite code (journeys 3 and 4) ------------------------------

  /** What charges tell of a cob or cobv paid through a composite code (RecurrenceActivations). */
  readonly activations: RecurrenceActivations = {
    chargePaid: payment => this.answerByPayment(payment),
  }

  /**
   * The payer paid a charge whose code carried a recurrence of the same receiver, still CRIADA: its
   * simulated payer answers at once, as for a confirmation request, approving by journey 3 (a cob, its
   * txid) or 4 (a cobv paid on time). Anything else leaves the recurrence as it was: the payment
   * stands either way.
   */
  private answerByPayment (payment: CompositePayment): void {
    if (!payment.onTime) return
    const ativacao = payment.kind === 'COB' ? { tipoJornada: 'JORNADA_3' as const, dadosJornada: { txid: payment.txid } } : { tipoJornada: 'JORNADA_4' as const }
    this.answerAfterPayment(payment, ativacao)
  }

  /**
   * The simulated payer's answer to the recurrence a paid code carried (its location, served to a
   * CRIADA recurrence of the account paid): REJEITADA by the payer's PSP (REC_PAYER_PSP_REJECTS) or by
   * the payer (its behaviour), APROVADA by the journey given unless the payer does not answer.
   */
  private answerAfterPayment (payment: ContractCodePayment, ativacao: Recurrence['ativacao']): void {
    const loc = this.recLocationAt(payment.recLocation)
    const rec = loc === undefined ? undefined : this.served(loc)
    if (rec === undefined || rec.accountId !== payment.accountId || rec.status !== 'CRIADA') return
    const behaviour = this.deps.payers.behaviourOf(rec)
    const refusal = pspRejection(rec)
    if (refusal !== undefined) this.move(rec.idRec, 'REJEITADA', 'PSP_PAGADOR', rejeicao(refusal))
    else if (behaviour?.authorization === 'REJECT') this.move(rec.idRec, 'REJEITADA', 'USUARIO_PAGADOR', rejeicao(behaviour.rejectionCode ?? 'AP13'))
    else if (behaviour?.authorization !== 'NO_ANSWER') {
      this.move(rec.idRec, 'APROVADA', 'USUARIO_PAGADOR', undefined, { ativacao, pagador: this.pagadorAt(rec, payment.payer.ispb), valorMaximoPagadorCents: behaviour?.valorMaximoCents })
    }
  }

  /** The location of recurrences at a URL (as a code carries it), whatever it serves now. */
  private recLocationAt (recLocation: string): RecLocation | undefined {
    const token = recTokenOf(recLocation)
    return token === null ? undefined : this.byToken.record(token)
  }

  // ---- the static code of a contract (journey 4's other form) -------------------------------------

  /**
   * What charges ask of the static code of a contract (ContractCodes): it pays the account whose
   * location of recurrences it carries, when that account holds its key (whatever the location serves
   * now: a static code stays payable); once paid, the payer answers the recurrence by journey 4.
   */
  readonly contractCodes: ContractCodes = {
    receiverOf: (recLocation, key) => {
      const loc = this.recLocationAt(recLocation)
      const account = loc === undefined ? undefined : this.store.account(loc.accountId)
      const canonical = this.deps.keys.canonical(key)
      return account !== undefined && canonical !== null && this.deps.keys.holds(account, canonical) ? account.id : undefined
    },
    paid: payment => this.answerAfterPayment(payment, { tipoJornada: 'JORNADA_4' }),
  }

  /**
   * The static code of a recurrence's contract, as the receiver's PSP offers it to the receiver (API Pix
   * defines no resource for it): a static code to `chave` (one the account holds; its document when
   * absent), of `amountCents` when given, its txid the contract when that fits a static code's (1 to 25
   * letters and digits), carrying the recurrence's location. A recurrence with no location, or no longer
   * CRIADA or APROVADA, has none.
   */
  staticCode (idRec: string, request: { chave?: string, amountCents?: number }): { jornada: 'JORNADA_4', pixCopiaECola: string } {
    const rec = this.find(idRec)
    if (rec.status !== 'CRIADA' && rec.status !== 'APROVADA') throw new Refusal('REC_INVALID_TRANSITION', `Recurrence ${idRec} is ${rec.status}: only a CRIADA or APROVADA one has a static code`, { en: `Recurrence ${idRec} is ${rec.status}: only a CRIADA or APROVADA one has a static code` })
    const loc = this.locationOf(rec)
    if (loc === undefined) {
      const message = `Recurrence ${idRec} has no location (loc): its static code carries the recurrence's location`
      throw new Refusal('REC_INVALID_TRANSITION', message, { en: message })
    }
    const account = this.account(rec)
    const key = request.chave === undefined ? account.document : this.deps.keys.canonical(request.chave)
    if (key === null || !this.deps.keys.holds(account, key)) {
      const message = `chave ${String(request.chave)} is not a key account ${account.id} holds: its document, or a key of the directory with its document and ISPB`
      throw invalidRequest(message, { en: message, fields: ['chave'] })
    }
    const contrato = rec.terms.vinculo.contrato
    const pixCopiaECola = contractCode({
      key,
      recLocation: loc.location,
      ...(request.amountCents !== undefined ? { amountCents: request.amountCents } : {}),
      ...(/^[A-Za-z0-9]{1,25}$/.test(contrato) ? { txid: contrato } : {}),
      merchantName: account.name,
      merchantCity: this.deps.merchantCity,
    })
    return { jornada: 'JORNADA_4', pixCopiaECola }
  }

  /** The payer a recurrence names once approved: its debtor, at the payer's PSP. */
  private pagadorAt (rec: Recurrence, ispbParticipante: string): RecPagador {
    const devedor = rec.terms.vinculo.devedor
    return { ispbParticipante, ...('cpf' in devedor ? { cpf: devedor.cpf } : { cnpj: devedor.cnpj }) }
  }

  // ---- the payer's side, steered through the control plane ---------------------------------------

  /** Any account's recurrence (the control plane acts as the payer's side). */
  find (idRec: string): Recurrence {
    const rec = this.store.data.recurrences[idRec]
    if (rec === undefined) throw new Refusal('NOT_FOUND', `Recurrence ${idRec} not found`, { en: `Recurrence ${idRec} not found` })
    return rec
  }

  private activeSolic (rec: Recurrence): SolicRec | undefined {
    return this.solicitacoesOf(rec).find(s => SOLICREC_ACTIVE_STATUSES.includes(s.status))
  }

  /**
   * The payer approves a CRIADA recurrence: through its confirmation request when one is waiting
   * (journey 1), else by the journey given, or the one its code composes (2 with a location, 3 when
   * the receiver named the immediate charge).
   */
  approve (idRec: string, approval: Approval): Recurrence {
    const rec = this.find(idRec)
    this.mustBe(rec, 'CRIADA', 'approved')
    const rule = recValueRule(rec.terms.valor)
    if (approval.valorMaximoCents !== undefined && rule.kind === 'MINIMO' && !pagadorMaximoValido(rule, approval.valorMaximoCents)) {
      // RecBase.valor.valorMinimoRecebedor: the payer's maximum "não poderá ser inferior ao piso".
      const message = `valorMaximo ${centsToString(approval.valorMaximoCents)} is below the receiver's floor, valorMinimoRecebedor ${rec.terms.valor.valorMinimoRecebedor}: a payer's maximum cannot be lower`
      throw invalidRequest(message, { en: message, fields: ['valorMaximo'] })
    }
    const solic = this.activeSolic(rec)
    const txid = rec.terms.ativacao?.dadosJornada.txid
    const jornada = approval.jornada ?? (solic !== undefined ? 'JORNADA_1' : txid !== undefined ? 'JORNADA_3' : 'JORNADA_2')
    if (jornada === 'JORNADA_1' && solic === undefined) throw new Refusal('INVALID_REQUEST', `Recurrence ${idRec} has no confirmation request waiting (journey 1)`, { en: `Recurrence ${idRec} has no confirmation request waiting (journey 1)` })
    if (jornada === 'JORNADA_3' && txid === undefined) throw new Refusal('INVALID_REQUEST', `Recurrence ${idRec} names no immediate charge (ativacao.dadosJornada.txid), which journey 3 pays`, { en: `Recurrence ${idRec} names no immediate charge (ativacao.dadosJornada.txid), which journey 3 pays` })
    return this.store.transact(() => {
      if (solic !== undefined && jornada === 'JORNADA_1') {
        if (solic.status === 'CRIADA') this.moveSolic(solic.idSolicRec, 'ENVIADA', 'PSP_RECEBEDOR')
        this.moveSolic(solic.idSolicRec, 'ACEITA', 'USUARIO_PAGADOR', false, { approval })
      } else {
        const pagador = approval.pagador ?? this.pagadorAt(rec, SIMULATED_PAYER_ISPB)
        const ativacao = jornada === 'JORNADA_3' ? { tipoJornada: jornada, dadosJornada: { txid: txid! } } : { tipoJornada: jornada }
        this.move(idRec, 'APROVADA', 'USUARIO_PAGADOR', undefined, { ativacao, pagador, valorMaximoPagadorCents: approval.valorMaximoCents })
      }
      return this.store.data.recurrences[idRec]
    })
  }

  /** The payer (or the payer's PSP) rejects a CRIADA recurrence, and its request waiting with it. */
  reject (idRec: string, codigo: 'AP13' | 'AP14' = 'AP13', by: 'USUARIO_PAGADOR' | 'PSP_PAGADOR' = 'USUARIO_PAGADOR'): Recurrence {
    const rec = this.find(idRec)
    this.mustBe(rec, 'CRIADA', 'rejected')
    const solic = this.activeSolic(rec)
    return this.store.transact(() => {
      if (solic !== undefined) {
        if (solic.status === 'CRIADA') this.moveSolic(solic.idSolicRec, 'ENVIADA', 'PSP_RECEBEDOR')
        this.moveSolic(solic.idSolicRec, 'REJEITADA', by, false, { encerramento: rejeicao(codigo) })
      } else {
        this.move(idRec, 'REJEITADA', by, rejeicao(codigo))
      }
      return this.store.data.recurrences[idRec]
    })
  }

  /** The recurrence expires now: a CRIADA one the payer never answered (its request too), or an APROVADA one. */
  expire (idRec: string): Recurrence {
    const rec = this.find(idRec)
    if (rec.status !== 'CRIADA' && rec.status !== 'APROVADA') this.mustBe(rec, 'CRIADA', 'expired')
    const solic = this.activeSolic(rec)
    return this.store.transact(() => {
      if (solic !== undefined) this.moveSolic(solic.idSolicRec, 'EXPIRADA', 'PSP_RECEBEDOR')
      else this.move(idRec, 'EXPIRADA', 'PSP_RECEBEDOR')
      return this.store.data.recurrences[idRec]
    })
  }

  /** The payer cancels an APROVADA recurrence (SLDB). */
  cancelByPayer (idRec: string): Recurrence {
    const rec = this.find(idRec)
    this.mustBe(rec, 'APROVADA', 'cancelled by its payer')
    return this.store.transact(() => {
      this.move(idRec, 'CANCELADA', 'USUARIO_PAGADOR', { cancelamento: { ...CANCELAMENTO.rec.USUARIO_PAGADOR } })
      return this.store.data.recurrences[idRec]
    })
  }

  private mustBe (rec: Recurrence, status: RecStatus, what: string): void {
    if (rec.status !== status) throw new Refusal('REC_INVALID_TRANSITION', `Recurrence ${rec.idRec} is ${rec.status}: only a ${status} one can be ${what}`, { en: `Recurrence ${rec.idRec} is ${rec.status}: only a ${status} one can be ${what}` })
  }

  // ---- the virtual clock ---------------------------------------------------------------------------

  /** The recurrence's jobs as it stands now: each replaces the one of its purpose scheduled before (a PATCH). */
  private follow (rec: Recurrence): void {
    this.payerCancels.follow(rec)
    this.expiry.follow(rec)
  }

  /** REC_PAYER_PSP_CANCELS: the payer's PSP cancels an APROVADA recurrence when its time comes. */
  private cancelByPayerPsp (idRec: string): void {
    const rec = this.store.data.recurrences[idRec]
    if (rec?.payerCancelsAt === undefined || rec.status !== 'APROVADA' || Date.parse(rec.payerCancelsAt) > this.now()) return
    const given = rec.scenarios?.find(a => a.name === 'REC_PAYER_PSP_CANCELS')?.params.codigo
    const codigo = given === 'DCSD' || given === 'FRUD' ? given : 'ACCL'
    this.store.transact(() => this.move(idRec, 'CANCELADA', 'PSP_PAGADOR', { cancelamento: { solicitante: 'PSP_PAGADOR', codigo, descricao: PSP_CANCELAMENTO[codigo] } }))
  }

  /** After its dataFinal, a recurrence still CRIADA or APROVADA expires. */
  private expireAtEnd (idRec: string): void {
    const rec = this.store.data.recurrences[idRec]
    if (rec === undefined || rec.dueAt === undefined || Date.parse(rec.dueAt) > this.now() || (rec.status !== 'CRIADA' && rec.status !== 'APROVADA')) return
    this.store.transact(() => {
      const solic = this.activeSolic(rec)
      if (solic !== undefined) this.moveSolic(solic.idSolicRec, 'EXPIRADA', 'PSP_RECEBEDOR')
      if (this.store.data.recurrences[idRec].status !== 'EXPIRADA') this.move(idRec, 'EXPIRADA', 'PSP_RECEBEDOR')
    })
  }
}

/** Why the payer's PSP cancels (REC_PAYER_PSP_CANCELS): the account closed, the payer deceased, a fraud. */
const PSP_CANCELAMENTO = {
  ACCL: 'Cancelamento pelo PSP pagador: conta do usuário pagador encerrada',
  DCSD: 'Cancelamento pelo PSP pagador: falecimento do usuário pagador',
  FRUD: 'Cancelamento pelo PSP pagador: suspeita de fraude',
} as const

/** REC_PAYER_PSP_REJECTS on a recurrence: the code its payer's PSP rejects it with (AP14 unless `codigo=AP13`). */
function pspRejection (rec: Recurrence): 'AP13' | 'AP14' | undefined {
  const given = rec.scenarios?.find(a => a.name === 'REC_PAYER_PSP_REJECTS')
  if (given === undefined) return undefined
  return given.params.codigo === 'AP13' ? 'AP13' : 'AP14'
}

function rejeicao (codigo: 'AP13' | 'AP14'): RecEncerramento {
  return { rejeicao: { codigo, descricao: codigo === 'AP13' ? 'Recorrência rejeitada pelo usuário pagador' : 'Recorrência rejeitada pelo PSP pagador' } }
}

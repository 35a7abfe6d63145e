import { maskDocument } from '../domain/documents.js'
import { centsToNumber } from '../domain/money.js'
import { parseLocalBound } from '../domain/calendar.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { receivedOf } from './charge-records.js'
import { MED_STATUSES, type MedRecord, type MedStatus, type Transaction } from '../store/state.js'
import type { AccountLookup, Lifecycle, MedReturns, Ports, ReceivedPayments } from '../ports.js'
import type { Config } from '../config.js'
import { KeyIndex, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists, StageLists } from '../store/record-lists.js'

/**
 * MED disputes (docs/gateway.md §2.10, 3.6; docs/assumptions.md, MED). The sandbox plays the requesting bank through
 * the control plane (open, move); integrators read them through GET /api/med, which is rate limited
 * per account by the sandbox clock. Transitions: OPEN -> RECEIVED -> ANALYZED (APPROVED or REJECTED),
 * or CANCELLED before analysis. An approved refund request returns what is left of the payment.
 */

/** Causes the sandbox treats as fraud (natureza MED_FRAUDE); any other cause is operational. */
export const FRAUD_CAUSES: readonly string[] = ['UNAUTHORIZED_TRANSACTION', 'SOCIAL_ENGINEERING', 'FRAUD', 'SCAM', 'ACCOUNT_TAKEOVER', 'COERCION']

const NEXT: Record<MedStatus, readonly MedStatus[]> = {
  OPEN: ['RECEIVED', 'CANCELLED'],
  RECEIVED: ['ANALYZED', 'CANCELLED'],
  ANALYZED: [],
  CANCELLED: [],
}

const RATE_WINDOW_MS = 60_000

/** The statuses of a dispute not yet decided, whose PIX is still in dispute. */
const PENDING_STATUSES: readonly MedStatus[] = ['OPEN', 'RECEIVED']

export interface MedListFilters {
  status?: MedStatus
  isReconciled?: boolean
  startDate?: string
  endDate?: string
  page?: number
  pageSize?: number
}

/** An ISO 8601 bound of GET /api/med's date filters, in São Paulo time (domain/calendar.ts). */
export const parseDateBound = parseLocalBound

export type MedDeps = Pick<Ports, 'store' | 'clock' | 'events'> & {
  config: Pick<Config, 'medRateLimit'>
  received: ReceivedPayments
  refunds: MedReturns
  accounts: AccountLookup
}

export class MedService implements Lifecycle {
  /** Sandbox instants of the accepted GET /api/med requests of the last minute, per account. */
  private readonly hits = new Map<number, number[]>()
  /** The dispute still pending (OPEN or RECEIVED) of each disputed PIX, by its endToEndId: at most one at a time. */
  private readonly pending: KeyIndex<'meds'>
  /** The disputes in the order they were opened, of every account (`all`) and of each: the control plane's list, and a window of them (Efí's infrações). */
  private readonly opened: RecordLists<'meds'>
  /**
   * Each account's disputes by status and reconciliation, newest last (their creation, then their id):
   * GET /api/med reads a page of the lists its filters cover, whatever the number of disputes. A
   * dispute changes list when it moves (`move`), which tells it here.
   */
  private readonly filed: StageLists<'meds'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: MedDeps) {
    this.pending = new KeyIndex(deps.store, 'meds', { keys: m => m.endToEnd, holds: m => PENDING_STATUSES.includes(m.status) })
    this.opened = new RecordLists(deps.store, 'meds', m => ['all', String(m.accountId)], m => m.createdAt)
    this.filed = new StageLists(deps.store, 'meds', { list: m => filedKey(m.accountId, m.status, m.isReconciled), reached: m => Date.parse(m.createdAt), tie: m => m.id })
    this.derived = [this.pending, this.opened, this.filed]
  }

  // The rate limit counts requests, not records: an account's removal and a reset forget it, a load or an import keeps it.
  forgetAccount (accountId: number): void {
    this.hits.delete(accountId)
  }

  afterReset (): void {
    this.hits.clear()
  }

  private now (): number { return this.deps.clock.now() }

  /** POST /__sandbox/med: the payer's bank opens a MED against a PIX the account received. */
  open (input: { endToEndId: string, reason: MedRecord['reason'], cause?: string, description?: string }, scenariosOf: (accountId: number) => AppliedScenario[]): MedRecord {
    const original = this.deps.received.findReceived(input.endToEndId)
    const received = original && original.endToEndId === input.endToEndId ? receivedOf(original) : undefined
    if (!original || !received) throw new Refusal('TRANSACTION_NOT_FOUND', `No received PIX with endToEndId ${input.endToEndId}`)
    const account = this.deps.accounts.require(original.accountId)
    const pending = this.pending.record(input.endToEndId)
    if (pending) throw new Refusal('MED_ALREADY_OPEN', `MED ${pending.id} is already open for this PIX`, { details: { medId: pending.id } })
    const scenarios = scenariosOf(account.id)
    return this.deps.store.transact(() => {
      const record = this.deps.store.add('meds', this.newRecord(account.id, input, original, received))
      this.pending.follow(record)
      this.opened.add(record)
      this.filed.follow(record)
      this.deps.events.emit({ kind: 'med-changed', accountId: account.id, medId: record.id, transition: 'created', transactionId: original.id, scenarios })
      return record
    })
  }

  private newRecord (accountId: number, input: { endToEndId: string, reason: MedRecord['reason'], cause?: string, description?: string }, original: Transaction, received: NonNullable<ReturnType<typeof receivedOf>>): MedRecord {
    const account = this.deps.accounts.require(accountId)
    const at = new Date(this.now()).toISOString()
    return {
      id: this.deps.store.nextSeq('med'),
      accountId: account.id,
      endToEnd: input.endToEndId,
      status: 'OPEN',
      reason: input.reason,
      cause: input.cause ?? null,
      description: input.description ?? null,
      analysisResult: null,
      analysisDetails: null,
      requestingBank: { ispb: received.payer.ispb, name: received.payer.bankName },
      contestedBank: { ispb: account.ispb, name: account.bankName },
      originalTransaction: {
        amount: centsToNumber(received.amountCents),
        type: 'PIX',
        transactionType: original.kind,
        name: received.payer.name,
        document: maskDocument(received.payer.document),
        dateTime: received.at,
      },
      // The disputed PIX is always one this sandbox received, so it is always reconciled.
      isReconciled: true,
      originalTransactionId: original.seq,
      originalTransactionUuid: original.id,
      refundTransactionId: null,
      createdAt: at,
      updatedAt: at,
    }
  }

  get (id: number): MedRecord {
    const record = this.deps.store.data.meds[id]
    if (!record) throw new Refusal('MED_NOT_FOUND', `MED ${id} not found`)
    return record
  }

  /** POST /__sandbox/med/:id/transition. Returns the record and, on approval, the devolução made. */
  transition (id: number, input: { status: MedStatus, analysisResult?: 'APPROVED' | 'REJECTED', analysisDetails?: string }, scenariosOf: (accountId: number) => AppliedScenario[]): { record: MedRecord, refund: Transaction | null } {
    const record = this.get(id)
    if (!NEXT[record.status].includes(input.status)) {
      throw new Refusal('MED_INVALID_TRANSITION', `Invalid transition: ${record.status} -> ${input.status}`, { details: { from: record.status, to: input.status, allowed: [...NEXT[record.status]] } })
    }
    if (input.status === 'ANALYZED' && !input.analysisResult) throw new Refusal('MED_ANALYSIS_REQUIRED', 'analysisResult (APPROVED or REJECTED) is required for ANALYZED')
    if (input.status !== 'ANALYZED' && input.analysisResult) throw new Refusal('MED_ANALYSIS_NOT_ALLOWED', 'analysisResult applies only to the transition to ANALYZED')
    const scenarios = scenariosOf(record.accountId)
    // One unit: an approval that cannot return the money leaves the MED where it was, and nothing debited.
    return this.deps.store.transact(() => this.move(record, input, scenarios))
  }

  private move (record: MedRecord, input: { status: MedStatus, analysisResult?: 'APPROVED' | 'REJECTED', analysisDetails?: string }, scenarios: AppliedScenario[]): { record: MedRecord, refund: Transaction | null } {
    const updatedAt = new Date(this.now()).toISOString()
    this.deps.store.patch('meds', record.id, m => {
      m.status = input.status
      m.updatedAt = updatedAt
      if (input.analysisDetails !== undefined) m.analysisDetails = input.analysisDetails
      if (input.status === 'ANALYZED') m.analysisResult = input.analysisResult!
    })
    this.pending.follow(record)
    this.filed.follow(record)
    if (input.status !== 'ANALYZED') return { record, refund: null }

    const transactionId = record.originalTransactionUuid ?? null
    if (record.analysisResult === 'REJECTED') {
      this.deps.events.emit({ kind: 'med-changed', accountId: record.accountId, medId: record.id, transition: 'rejected', transactionId, scenarios })
      return { record, refund: null }
    }
    // Only a refund request moves money; an approved REFUND_CANCELLATION just closes the dispute.
    const original = transactionId ? this.deps.store.transaction(transactionId) : undefined
    let refund: Transaction | null = null
    if (record.reason === 'REFUND_REQUEST' && original) {
      const natureza = record.cause !== null && FRAUD_CAUSES.includes(record.cause) ? 'MED_FRAUDE' : 'MED_OPERACIONAL'
      refund = this.deps.refunds.medReturn(original, natureza, `MED ${record.id}`)
      if (refund) {
        const refundId = refund.id
        this.deps.store.patch('meds', record.id, m => { m.refundTransactionId = refundId })
      }
    }
    this.deps.events.emit({ kind: 'med-changed', accountId: record.accountId, medId: record.id, transition: 'accepted', transactionId, ...(refund ? { refundId: refund.id } : {}), scenarios })
    return { record, refund }
  }

  /**
   * The receiving account answers the claim, once (Efí's defence, docs/efi.md): accepting it closes the
   * case as approved and returns the money, as an approval does; contesting it leaves the case to the
   * requesting bank's analysis. A second answer, or one to a closed case, is MED_INVALID_TRANSITION.
   */
  defend (accountId: number, id: number, input: { analysis: 'ACCEPTED' | 'CONTESTED', justification: string }, scenariosOf: (accountId: number) => AppliedScenario[]): { record: MedRecord, refund: Transaction | null } {
    const record = this.deps.store.data.meds[id]
    if (record === undefined || record.accountId !== accountId) throw new Refusal('MED_NOT_FOUND', 'Infração não encontrada.')
    if (record.defence !== undefined) throw new Refusal('MED_INVALID_TRANSITION', 'A defesa para essa infração já foi criada.')
    if (record.status !== 'OPEN' && record.status !== 'RECEIVED') throw new Refusal('MED_INVALID_TRANSITION', 'A infração já foi encerrada.')
    const scenarios = scenariosOf(accountId)
    const at = new Date(this.now()).toISOString()
    return this.deps.store.transact(() => {
      this.deps.store.patch('meds', id, m => { m.defence = { analysis: input.analysis, justification: input.justification, at } })
      if (input.analysis === 'CONTESTED') {
        this.deps.store.patch('meds', id, m => { m.updatedAt = at })
        return { record: this.deps.store.data.meds[id], refund: null }
      }
      return this.move(this.deps.store.data.meds[id], { status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: input.justification }, scenarios)
    })
  }

  /** GET /api/med: the account's disputes, newest first, filtered and paged (docs/gateway.md §4.1 row 11): what costs the page. */
  list (accountId: number, f: MedListFilters): { data: MedRecord[], metadata: { total: number, page: number, pageSize: number, totalPages: number } } {
    const problems: string[] = []
    const start = f.startDate !== undefined ? parseDateBound(f.startDate, 'start') : undefined
    const end = f.endDate !== undefined ? parseDateBound(f.endDate, 'end') : undefined
    if (start === null) problems.push('startDate deve ser uma data ISO 8601 (ex.: 2026-03-10 ou 2026-03-10T12:00:00Z)')
    if (end === null) problems.push('endDate deve ser uma data ISO 8601 (ex.: 2026-03-10 ou 2026-03-10T12:00:00Z)')
    if (problems.length > 0) throw invalidRequest(problems)
    const page = f.page ?? 1
    const pageSize = f.pageSize ?? 20
    const keys = (f.status === undefined ? MED_STATUSES : [f.status]).flatMap(status => (f.isReconciled === undefined ? [true, false] : [f.isReconciled]).map(reconciled => filedKey(accountId, status, reconciled)))
    const { total, records } = this.filed.pageWithin(keys, { from: start ?? -Infinity, to: end ?? Infinity }, (page - 1) * pageSize, pageSize, true)
    return { data: records, metadata: { total, page, pageSize, totalPages: Math.ceil(total / pageSize) } }
  }

  /** An account's disputes opened within the window, in the order opened: what costs their number (a list of BACEN's). */
  openedWithin (accountId: number, window: InstantRange): MedRecord[] {
    return this.opened.within(String(accountId), window)
  }

  /** An account's disputes still pending (OPEN or RECEIVED), by status: what costs their number. */
  pendingOf (accountId: number): MedRecord[] {
    return PENDING_STATUSES.flatMap(status => [true, false].flatMap(reconciled => this.filed.within(filedKey(accountId, status, reconciled), { from: -Infinity, to: Infinity })))
  }

  all (accountId?: number): MedRecord[] {
    return this.opened.listed(accountId === undefined ? 'all' : String(accountId)).sort((a, b) => a.id - b.id)
  }

  /**
   * The real rate limit of GET /api/med: config.medRateLimit requests per account per minute of
   * sandbox time (a sliding window). Counts the request when it is let through.
   */
  takeListSlot (accountId: number): { ok: true } | { ok: false, retryAfterMs: number } {
    const now = this.now()
    const recent = (this.hits.get(accountId) ?? []).filter(at => at > now - RATE_WINDOW_MS)
    if (recent.length >= this.deps.config.medRateLimit) {
      this.hits.set(accountId, recent)
      return { ok: false, retryAfterMs: recent[0] + RATE_WINDOW_MS - now }
    }
    recent.push(now)
    this.hits.set(accountId, recent)
    return { ok: true }
  }
}

const filedKey = (accountId: number, status: MedStatus, reconciled: boolean): string => `${accountId}\u0000${status}\u0000${reconciled ? 1 : 0}`

import { returnId } from '../domain/ids.js'
import * as ledger from '../domain/ledger.js'
import { amountMessage, centsToNumber, centsToString, parseAmount, parseDecimalString } from '../domain/money.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import { isKind, REFUND_KINDS, type Account, type DeepReadonly, type Draft, type Mutable, type Natureza, type RefundData, type ReceivedPayment, type RefundKind, type Transaction, type TransactionOf } from '../store/state.js'
import { hasScenario, scenarioParam } from '../../scenarios/resolver.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { cannotReceive, chargeData, receivedOf } from './charge-records.js'
import { iso, recordTransition } from './history.js'
import type { ExpiringRefs, ExpiringRefsInput } from './expiring-refs.js'
import type { DevolucaoRules, DevolucaoWrites, Lifecycle, MedReturns, PendingOperations, Ports, ReceivedPayments } from '../ports.js'
import { DueJobs, type Derived } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import type { Config } from '../config.js'
import type { ChargeStageFollower } from './charge-stages.js'

/**
 * Refunds of received payments: refund-in (standard family, docs/gateway.md §2.7) and devolução (central-bank
 * family, 2.9), one record kind each (REFUND_IN, DEVOLUCAO) and one rule for what is left to refund.
 * A refund reserves its amount at once (available -> blocked) and settles through the scheduler.
 * MED approvals return money through `medReturn`, a devolução of natureza MED_*, debited at once.
 */
export const REFUND_DEADLINE_DAYS = 89
const DAY_MS = 86_400_000

/** The gateway's devolução (docs/gateway.md §2.9, 7.8): within 89 days, RETIRADA taken as any natureza. */
export const GATEWAY_DEVOLUCAO: DevolucaoRules = { deadlineDays: REFUND_DEADLINE_DAYS, retirada: true }
/**
 * API Pix's (tag Pix, PixDevolucaoInvalida): within 90 days of the PIX's settlement; RETIRADA returns
 * the withdrawal or change of a Pix Saque or Troco, which no PIX the sandbox receives has.
 */
export const API_PIX_DEVOLUCAO: DevolucaoRules = { deadlineDays: 90, retirada: false }
const PAYOUT_KINDS: readonly string[] = ['CASH_OUT', 'CASH_OUT_QRCODE', 'DICT_TRANSFER']

export type { Natureza, RefundData }

/** The `data` of a refund (REFUND_IN, DEVOLUCAO); another kind here is a bug, not an input. */
export function refundData (tx: Transaction): DeepReadonly<RefundData> {
  if (isKind(tx, REFUND_KINDS)) return tx.data
  throw new Error(`transaction ${tx.id} is a ${tx.kind}, not a refund`)
}
function refundDraft (tx: Draft<Transaction>): RefundData {
  if (isKind(tx, REFUND_KINDS)) return tx.data
  throw new Error(`transaction ${tx.id} is a ${tx.kind}, not a refund`)
}

/** Each kind speaks its family's words for the same three states. */
const STATUS = {
  REFUND_IN: { pending: 'PENDING', done: 'CONFIRMED', failed: 'ERROR' },
  DEVOLUCAO: { pending: 'EM_PROCESSAMENTO', done: 'DEVOLVIDO', failed: 'NAO_REALIZADO' },
} as const
type Phase = 'pending' | 'done' | 'failed'

function phaseOf (tx: Transaction): Phase {
  const s = STATUS[tx.kind as 'REFUND_IN' | 'DEVOLUCAO']
  return tx.status === s.pending ? 'pending' : tx.status === s.done ? 'done' : 'failed'
}

/** A refund's status in the words of a kind: a refund-in read as a devolução shows EM_PROCESSAMENTO, DEVOLVIDO or NAO_REALIZADO. */
export function refundStatusAs<K extends RefundKind> (kind: K, tx: Transaction): typeof STATUS[K][Phase] {
  return STATUS[kind][phaseOf(tx)] as typeof STATUS[K][Phase]
}

export type RefundDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng' | 'events'> & {
  config: Pick<Config, 'settlementDelayMs'>
  received: ReceivedPayments
  /** A dialect's idempotency key on a refund, kept for a while. */
  expiringRefs: ExpiringRefs
  /** The charges' stages (charge-stages.ts): a payment's stage moves with what its refunds returned. */
  stages: ChargeStageFollower
}

export class RefundService implements DevolucaoWrites, MedReturns, Lifecycle {
  /** A pending refund's settlement, at its `dueAt`. */
  private readonly settlements: DueJobs<'transactions'>
  /** Each received payment's refunds, oldest first: what is left to refund, and a payment's refunds, without a pass over its account's records. */
  private readonly byOriginal: RecordLists<'transactions'>
  /** Each pay-out's returns (REFUND_RECEIVED), oldest first: what is left of it to come back. */
  private readonly returned: RecordLists<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: RefundDeps) {
    this.settlements = new DueJobs(deps.store, deps.scheduler, 'transactions', {
      purpose: 'refund-settlement',
      dueAt: tx => isKind(tx, REFUND_KINDS) && tx.dueAt && phaseOf(tx) === 'pending' ? Date.parse(tx.dueAt) : undefined,
      run: tx => {
        if (phaseOf(tx) !== 'pending') return
        if (hasScenario(tx.scenarios, 'REFUND_FAILED')) this.failNow(tx, 'REFUND_FAILED', 'Devolução recusada pelo provedor de pagamento')
        else this.settleNow(tx)
      },
    })
    this.byOriginal = new RecordLists(deps.store, 'transactions', tx => isKind(tx, REFUND_KINDS) ? [tx.data.originalId] : [])
    this.returned = new RecordLists(deps.store, 'transactions', tx => tx.kind === 'REFUND_RECEIVED' ? [tx.data.originalId] : [])
    this.derived = [this.settlements, this.byOriginal, this.returned]
  }

  /** POST /__sandbox/transactions/:id/settle and /fail on a refund. */
  readonly pendingOperations: PendingOperations = {
    kinds: REFUND_KINDS,
    isPending: tx => isKind(tx, REFUND_KINDS) && phaseOf(tx) === 'pending',
    settle: tx => { this.settleNow(tx) },
    fail: (tx, code) => { this.failNow(tx, code, `Devolução não realizada (${code})`) },
  }

  private get store () { return this.deps.store }
  private now (): number { return this.deps.clock.now() }

  /** What is left to refund of a received payment: its amount minus every refund not failed. */
  remainingCents (original: Transaction): number {
    const received = receivedOf(original)
    if (!received) return 0
    const used = this.refundsOf(original).filter(r => phaseOf(r) !== 'failed').reduce((sum, r) => sum + r.amountCents, 0)
    return Math.max(0, received.amountCents - used)
  }

  /** What a received payment's settled refunds returned (a refund pending or failed returned nothing). */
  refundedCents (original: Transaction): number {
    return this.refundsOf(original).filter(r => phaseOf(r) === 'done').reduce((sum, r) => sum + r.amountCents, 0)
  }

  refundsOf (original: Transaction): Transaction[] {
    return this.byOriginal.of(original.id).map(id => this.store.transaction(String(id))!)
  }

  private deadlinePassed (received: DeepReadonly<ReceivedPayment>, days = REFUND_DEADLINE_DAYS): boolean {
    return this.now() > Date.parse(received.at) + days * DAY_MS
  }

  // ---- refund-in (standard family) --------------------------------------------------------------

  /** POST /api/pix/refund-in/:id, `id` the received payment's transactionId or endToEndId (docs/gateway.md §2.7, 7.5). */
  refundIn (
    account: Account, id: string, body: { refundValue: number, reason?: string, externalId?: string }, scenarios: AppliedScenario[], deadlineDays = REFUND_DEADLINE_DAYS,
    expiringRefs?: ExpiringRefsInput
  ): Transaction {
    const original = this.deps.received.findReceived(id)
    if (!original || original.accountId !== account.id) throw new Refusal('TRANSACTION_NOT_FOUND', `Transação original ${id} não encontrada`)
    const received = receivedOf(original)
    if (!received) throw new Refusal('REFUND_NOT_ALLOWED', `A transação ${id} não é um pagamento recebido e liquidado`)
    if (this.deadlinePassed(received, deadlineDays)) throw new Refusal('REFUND_DEADLINE_EXCEEDED', `O prazo de ${deadlineDays} dias para devolução expirou`)
    const amount = parseAmount(body.refundValue)
    if (!amount.ok) throw new Refusal('PIX_INVALID_AMOUNT', amountMessage('refundValue', amount.reason))
    const remaining = this.remainingCents(original)
    if (amount.cents > remaining) {
      throw new Refusal('REFUND_AMOUNT_EXCEEDS_ORIGINAL', `refundValue (${centsToString(amount.cents)}) excede o valor ainda devolvível (${centsToString(remaining)})`, {
        details: { refundValue: centsToNumber(amount.cents), remaining: centsToNumber(remaining) },
      })
    }
    const refId = body.externalId ?? this.deps.rng.alnum(20)
    if (this.store.transactionByRef(`devolucao:${received.endToEndId}:${refId}`)) {
      throw new Refusal('PIX_DUPLICATE_EXTERNAL_ID', `externalId ${refId} já utilizado em uma devolução desta transação`, { details: { externalId: refId } })
    }
    if (account.balance.availableCents < amount.cents) throw new Refusal('PIX_INSUFFICIENT_BALANCE', 'Saldo disponível insuficiente para a devolução')
    return this.store.transact(() => {
      this.store.ledger(account.id, a => ledger.reserve(a, amount.cents))
      return this.open(account, original, received, 'REFUND_IN', amount.cents, refId, 'ORIGINAL', { reason: body.reason }, scenarios, true, expiringRefs)
    })
  }

  // ---- devolução (central-bank family) ----------------------------------------------------------

  /** PUT /pix/:e2eid/devolucao/:id (docs/gateway.md §2.9, 3.3, 7.8), and API Pix's on its own `rules`. */
  devolucao (
    account: Account, e2eid: string, id: string, body: { valor: string, natureza?: 'ORIGINAL' | 'RETIRADA', descricao?: string }, scenarios: AppliedScenario[],
    rules: DevolucaoRules = GATEWAY_DEVOLUCAO
  ): Transaction {
    const valor = parseDecimalString(body.valor, 'exactly-2')
    if (!valor.ok) throw invalidRequest('valor deve ser um decimal com 2 casas, ex.: "10.00"', { fields: ['devolucao.valor'] })
    const original = this.deps.received.findReceived(e2eid)
    if (!original || original.accountId !== account.id || original.endToEndId !== e2eid) throw new Refusal('NOT_FOUND', `PIX ${e2eid} não encontrado`)
    const received = receivedOf(original)
    if (!received) throw new Refusal('NOT_FOUND', `A transação ${e2eid} não é um PIX recebido`)
    if (this.store.transactionByRef(`devolucao:${e2eid}:${id}`)) throw new Refusal('DEVOLUCAO_ID_EXISTS', `A devolução ${id} já existe para o PIX ${e2eid}`)
    if (this.deadlinePassed(received, rules.deadlineDays)) throw new Refusal('REFUND_DEADLINE_EXCEEDED', `O prazo de ${rules.deadlineDays} dias para devolução expirou`)
    if (body.natureza === 'RETIRADA' && !rules.retirada) {
      throw new Refusal('REFUND_AMOUNT_EXCEEDS_ORIGINAL', `natureza RETIRADA devolve o saque ou o troco de um Pix Saque ou Pix Troco; o PIX ${e2eid} não tem saque nem troco (valor devolvível 0.00); use ORIGINAL`)
    }
    const remaining = this.remainingCents(original)
    // The simple shape shows no code; the code tells the integration report what was refused.
    if (valor.cents > remaining) throw new Refusal('REFUND_AMOUNT_EXCEEDS_ORIGINAL', `valor (${centsToString(valor.cents)}) excede o valor ainda devolvível (${centsToString(remaining)})`)
    if (account.balance.availableCents < valor.cents) throw new Refusal('PIX_INSUFFICIENT_BALANCE', 'Saldo disponível insuficiente para a devolução')
    return this.store.transact(() => {
      this.store.ledger(account.id, a => ledger.reserve(a, valor.cents))
      return this.open(account, original, received, 'DEVOLUCAO', valor.cents, id, body.natureza ?? 'ORIGINAL', { descricao: body.descricao }, scenarios)
    })
  }

  devolucaoOf (account: Account, e2eid: string, id: string): Transaction {
    const tx = this.store.transactionByRef(`devolucao:${e2eid}:${id}`)
    if (!tx || tx.accountId !== account.id) throw new Refusal('NOT_FOUND', `Devolução ${id} do PIX ${e2eid} não encontrada`)
    return tx
  }

  // ---- MED ----------------------------------------------------------------------------------------

  /**
   * An approved MED returns what is left of the payment at once, as a devolução of natureza
   * MED_FRAUDE or MED_OPERACIONAL (debited immediately, not reserved). Null when nothing is left;
   * NAO_REALIZADO when the available balance does not cover it.
   */
  medReturn (original: Transaction, natureza: 'MED_FRAUDE' | 'MED_OPERACIONAL', descricao: string): Transaction | null {
    const received = receivedOf(original)
    const account = this.store.account(original.accountId)
    const amountCents = this.remainingCents(original)
    if (!received || !account || amountCents === 0) return null
    return this.store.transact(() => {
      const debited = this.store.ledger(account.id, a => ledger.debitImmediately(a, amountCents))
      const tx = this.open(account, original, received, 'DEVOLUCAO', amountCents, `MED${this.deps.rng.alnum(29)}`, natureza, { descricao }, [], false)
      const at = iso(this.now())
      this.store.update('transactions', tx.id, d => {
        if (debited) {
          refundDraft(d).settledAt = at
          this.transition(d, 'DEVOLVIDO', 'MED approved')
        } else {
          const motivo = 'Saldo disponível insuficiente para a devolução do MED'
          refundDraft(d).motivo = motivo
          d.errorCode = 'PIX_INSUFFICIENT_BALANCE'
          d.errorMessage = motivo
          this.transition(d, 'NAO_REALIZADO', 'insufficient balance')
        }
      })
      this.deps.stages.follow(original)
      return tx
    })
  }

  // ---- settlement -------------------------------------------------------------------------------

  private open (
    account: Account, original: Transaction, received: DeepReadonly<ReceivedPayment>, kind: 'REFUND_IN' | 'DEVOLUCAO', amountCents: number,
    refId: string, natureza: Natureza, text: { reason?: string, descricao?: string }, scenarios: AppliedScenario[], settleLater = true,
    expiringRefs?: ExpiringRefsInput
  ): Transaction {
    const now = this.now()
    const at = iso(now)
    const rtrId = returnId(account.ispb, now, this.deps.rng)
    const data: RefundData = {
      originalId: original.id,
      rtrId,
      devolucaoId: refId,
      natureza,
      ...(text.descricao !== undefined ? { descricao: text.descricao } : {}),
      ...(text.reason !== undefined ? { reason: text.reason } : {}),
      motivo: null,
      requestedAt: at,
    }
    const status = STATUS[kind].pending
    // `kind` and `status` go together (STATUS), which the compiler cannot follow through two variables.
    const tx = {
      id: this.deps.rng.uuid(),
      seq: this.store.nextSeq('transaction'),
      accountId: account.id,
      kind,
      direction: 'OUT',
      status,
      amountCents,
      feeCents: 0,
      externalId: refId,
      endToEndId: rtrId,
      description: text.descricao ?? text.reason,
      ...(original.counterpart ? { counterpart: { ...original.counterpart } } : {}),
      errorCode: null,
      errorMessage: null,
      ...(scenarios.length > 0 ? { scenarios } : {}),
      data,
      createdAt: at,
      updatedAt: at,
      history: [{ status, at }],
    } as Mutable<TransactionOf<RefundKind>>
    if (settleLater) {
      const delay = hasScenario(scenarios, 'REFUND_DELAY') ? scenarioParam(scenarios, 'REFUND_DELAY', 'ms', this.deps.config.settlementDelayMs) : this.deps.config.settlementDelayMs
      tx.dueAt = iso(now + delay)
    }
    const added = this.store.addTransaction(tx, undefined, [`devolucao:${received.endToEndId}:${refId}`, `rtr:${rtrId}`, ...this.deps.expiringRefs.mark(data, expiringRefs)])
    this.byOriginal.add(added)
    if (added.dueAt) this.settlements.follow(added)
    this.deps.expiringRefs.follow(added)
    return added
  }

  // ---- refunds received on pay-outs (refund_out) ------------------------------------------------

  /**
   * The destination bank returns (part of) a liquidated pay-out: the money arrives already
   * liquidated as a REFUND_RECEIVED record, the account is credited, and `refund_out` fires.
   * The gateway has no endpoint for this; the control plane triggers it the way the payee would.
   */
  receiveReturn (original: Transaction, body: { amount?: number, reason?: string }, scenarios: AppliedScenario[]): Transaction {
    const account = this.store.account(original.accountId)
    if (!account || !PAYOUT_KINDS.includes(original.kind) || original.status !== 'CONFIRMED' || !original.endToEndId) {
      throw new Refusal('REFUND_NOT_ALLOWED', `Transaction ${original.id} is not a liquidated outgoing payment`)
    }
    const returned = this.returnsOf(original).reduce((sum, r) => sum + r.amountCents, 0)
    const remaining = original.amountCents - returned
    let cents = remaining
    if (body.amount !== undefined) {
      const amount = parseAmount(body.amount)
      if (!amount.ok) throw new Refusal('PIX_INVALID_AMOUNT', amountMessage('amount', amount.reason, 'en'))
      cents = amount.cents
    }
    if (cents <= 0 || cents > remaining) {
      throw new Refusal('REFUND_AMOUNT_EXCEEDS_ORIGINAL', `amount (${centsToString(cents)}) exceeds what is left to return (${centsToString(remaining)})`, {
        details: { remaining: centsToNumber(remaining) },
      })
    }
    if (!ledger.canReceive(account, cents)) throw cannotReceive()
    return this.store.transact(() => this.recordReturn(account, original, cents, body.reason, scenarios))
  }

  private recordReturn (account: Account, original: Transaction, cents: number, reason: string | undefined, scenarios: AppliedScenario[]): Transaction {
    const now = this.now()
    const at = iso(now)
    const rtrId = returnId(original.counterpart?.ispb ?? account.ispb, now, this.deps.rng)
    const tx: Mutable<Transaction> = {
      id: this.deps.rng.uuid(),
      seq: this.store.nextSeq('transaction'),
      accountId: account.id,
      kind: 'REFUND_RECEIVED',
      direction: 'IN',
      status: 'CONFIRMED',
      amountCents: cents,
      feeCents: 0,
      endToEndId: rtrId,
      ...(original.counterpart ? { counterpart: original.counterpart } : {}),
      scenarios,
      data: { originalId: original.id, reason: reason ?? null },
      createdAt: at,
      updatedAt: at,
      history: [{ status: 'CONFIRMED', at, reason: 'returned by the destination bank' }],
    }
    this.returned.add(this.store.addTransaction(tx))
    this.store.ledger(account.id, a => ledger.creditIncoming(a, cents))
    this.deps.events.emit({ kind: 'refund-changed', accountId: account.id, transactionId: tx.id, direction: 'out', scenarios })
    return tx
  }

  /** What the destination bank returned of a pay-out (REFUND_RECEIVED), oldest first. */
  returnsOf (original: Transaction): Transaction[] {
    return this.returned.listed(original.id)
  }

  /**
   * Liquidates a pending refund now (also what /__sandbox/transactions/:id/settle calls):
   * its reservation leaves the account, the refund_in webhook (V2 REFUND) fires. False if not pending.
   */
  settleNow (tx: Transaction): boolean {
    const account = this.store.account(tx.accountId)
    if (!account || !isKind(tx, REFUND_KINDS) || phaseOf(tx) !== 'pending') return false
    this.store.transact(() => {
      this.store.ledger(account.id, a => ledger.settleOutgoing(a, tx.amountCents, 0))
      const at = iso(this.now())
      this.store.update('transactions', tx.id, d => {
        d.dueAt = undefined // not `delete`: see PayoutService.transition
        refundDraft(d).settledAt = at
        this.transition(d, STATUS[d.kind as 'REFUND_IN'].done, 'settled')
      })
      this.followOriginal(tx)
      this.emit(tx)
    })
    return true
  }

  /** Fails a pending refund now: the reservation returns to available, motivo is set, the webhook reports it. */
  failNow (tx: Transaction, code = 'REFUND_FAILED', message = 'Devolução não realizada'): boolean {
    const account = this.store.account(tx.accountId)
    if (!account || !isKind(tx, REFUND_KINDS) || phaseOf(tx) !== 'pending') return false
    this.store.transact(() => {
      this.store.ledger(account.id, a => ledger.release(a, tx.amountCents))
      this.store.update('transactions', tx.id, d => {
        d.dueAt = undefined // not `delete`: see PayoutService.transition
        refundDraft(d).motivo = message
        d.errorCode = code
        d.errorMessage = message
        this.transition(d, STATUS[d.kind as 'REFUND_IN'].failed, code)
      })
      this.followOriginal(tx)
      this.emit(tx)
    })
    return true
  }

  /** A refund ended: what its payment's refunds returned may have changed its stage. */
  private followOriginal (tx: Transaction): void {
    const original = this.store.transaction(refundData(tx).originalId)
    if (original !== undefined) this.deps.stages.follow(original)
  }

  /** A refund of a received payment ended (settled or failed): the dialects notify it. */
  private emit (tx: Transaction): void {
    const original = this.store.transaction(refundData(tx).originalId)
    // Only a refund of a payment that arrived is one a receiver can be told of.
    if (!original || !chargeData(original).received) return
    this.deps.events.emit({ kind: 'refund-changed', accountId: tx.accountId, transactionId: tx.id, direction: 'in', scenarios: tx.scenarios })
  }

  private transition<T extends Draft<Transaction>> (tx: T, status: T['status'], reason?: string): void {
    recordTransition(tx, status, iso(this.now()), reason)
  }
}

import { nextMidnight } from '../domain/calendar.js'
import { normalizeKey } from '../domain/keys.js'
import * as ledger from '../domain/ledger.js'
import { endToEndId } from '../domain/ids.js'
import type { Account, Mutable, SplitRecord, Transaction } from '../store/state.js'
import type { ChargeSplits, IncomingPix, Lifecycle, Ports } from '../ports.js'
import { DueJobs, type Derived } from '../store/derived.js'
import { chargeData, chargeDraft } from './charge-records.js'
import { iso } from './history.js'

const HOUR_MS = 3_600_000

/**
 * When a non-immediate split is paid: the next full hour (HOURLY) or the next midnight in São Paulo
 * (DAILY), strictly after `now`; IMMEDIATE is now.
 */
export function nextSplitRun (nowMs: number, frequency: 'IMMEDIATE' | 'HOURLY' | 'DAILY'): number {
  if (frequency === 'IMMEDIATE') return nowMs
  if (frequency === 'HOURLY') return (Math.floor(nowMs / HOUR_MS) + 1) * HOUR_MS
  return nextMidnight(nowMs)
}

export type SplitDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng'> & {
  /** Where a split to an account of this sandbox arrives (Efí's split): a received PIX of that account. */
  incoming?: IncomingPix
}

/**
 * The splits of a paid cash-in (docs/gateway.md §2.6): each is paid out of the receiving account's
 * available balance as a SPLIT transaction, at once (an immediate split, or an account that splits
 * IMMEDIATE) or at the account's next HOURLY or DAILY run. The split's status and due time live on the
 * charge's record (`data.splits`), so a restart or an import schedules what is still due.
 */
export class SplitService implements ChargeSplits, Lifecycle {
  /** A charge's splits still scheduled: paid at their run (the splits of one charge are scheduled for one run). */
  private readonly runs: DueJobs<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: SplitDeps) {
    this.runs = new DueJobs(deps.store, deps.scheduler, 'transactions', {
      purpose: 'split-payout',
      dueAt: tx => {
        if (tx.kind !== 'CASH_IN' && tx.kind !== 'COB') return undefined
        let due: number | undefined
        for (const s of chargeData(tx).splits) if (s.status === 'SCHEDULED' && s.dueAt) due = Math.min(due ?? Infinity, Date.parse(s.dueAt))
        return due
      },
      run: tx => this.payDue(tx),
    })
    this.derived = [this.runs]
  }

  private get store () { return this.deps.store }

  /**
   * The splits of an open charge replaced (Efí's split linked to a cob or cobv, or unlinked: none), paid
   * when it is: each named by its favorecido's key or, for an account of this sandbox, by its accountId.
   */
  setSplits (charge: Transaction, splits: ReadonlyArray<Omit<SplitRecord, 'status'>>, from?: { id: string, revisao: number }): void {
    this.store.transact(() => this.store.update('transactions', charge.id, d => {
      const data = chargeDraft(d)
      data.splits = splits.map(split => ({ ...split, status: 'WAITING' as const }))
      data.pspSplit = from
    }))
  }

  runSplits (charge: Transaction, account: Account): void {
    const now = this.deps.clock.now()
    chargeData(charge).splits.forEach((split, index) => {
      if (split.status !== 'WAITING') return
      if (split.immediate || account.splitFrequency === 'IMMEDIATE') {
        this.paySplit(charge.id, index)
        return
      }
      const dueAt = iso(nextSplitRun(now, account.splitFrequency))
      this.store.update('transactions', charge.id, d => {
        const s = chargeDraft(d).splits[index]
        s.status = 'SCHEDULED'
        s.dueAt = dueAt
      })
    })
    this.runs.follow(this.store.transaction(charge.id)!)
  }

  /**
   * The run of a charge's splits: each still SCHEDULED whose time has come is paid, in order (a rollback
   * may have put one back to waiting for a payment that never happened); a later run, if any, is next.
   */
  private payDue (charge: Transaction): void {
    const now = this.deps.clock.now()
    chargeData(charge).splits.forEach((s, i) => {
      if (s.status === 'SCHEDULED' && s.dueAt && Date.parse(s.dueAt) <= now) this.paySplit(charge.id, i)
    })
    this.runs.follow(this.store.transaction(charge.id)!)
  }

  /** Pays one split out of the account's available balance, recorded as a SPLIT transaction. */
  private paySplit (chargeId: string, index: number): void {
    const charge = this.store.transaction(chargeId)
    const split = charge ? chargeData(charge).splits[index] : undefined
    if (!charge || !split || split.status === 'PAID' || split.status === 'FAILED') return
    const account = this.store.account(charge.accountId)
    if (!account) return
    this.store.transact(() => {
      const at = iso(this.deps.clock.now())
      // A refund may have used the money meanwhile: then the split fails rather than overdraw the account.
      // A favorecido account of this sandbox removed since the link takes nothing: the split fails, nothing debited.
      const gone = split.accountId !== undefined && this.store.account(split.accountId) === undefined
      const paid = !gone && this.store.ledger(account.id, a => ledger.debitImmediately(a, split.amountCents))
      const favorecido = split.accountId !== undefined ? this.store.account(split.accountId) : undefined
      const entry = favorecido !== undefined
        ? { ispb: favorecido.ispb, bankName: favorecido.bankName, bankCode: null, accountBranch: null, accountNumber: String(favorecido.id) }
        : this.store.directoryEntry(normalizeKey(split.pixKeyType, split.pixKey))
      const status = paid ? 'CONFIRMED' : 'ERROR'
      const tx: Mutable<Transaction> = {
        id: this.deps.rng.uuid(),
        seq: this.store.nextSeq('transaction'),
        accountId: account.id,
        kind: 'SPLIT',
        data: { chargeId, splitIndex: index, type: split.type, value: split.value, immediate: split.immediate },
        direction: 'OUT',
        status,
        amountCents: split.amountCents,
        feeCents: 0,
        errorCode: paid ? null : gone ? 'ACCOUNT_CLOSED' : 'PIX_INSUFFICIENT_BALANCE',
        errorMessage: paid ? null : gone ? 'A conta do favorecido não existe mais' : 'Saldo disponível insuficiente para pagar o split',
        createdAt: at,
        updatedAt: at,
        history: [{ status, at }],
        pixKey: split.pixKey,
        description: `Split da cobrança ${charge.externalId ?? chargeData(charge).txid ?? charge.id}`,
        counterpart: {
          name: split.name,
          document: split.document,
          ispb: entry?.ispb ?? '',
          bankName: entry?.bankName ?? '',
          bankCode: entry?.bankCode ?? null,
          accountBranch: entry?.accountBranch ?? null,
          accountNumber: entry?.accountNumber ?? null,
          key: split.pixKey,
        },
      }
      this.store.addTransaction(tx)
      // To an account of this sandbox: it receives the split as a PIX from the charge's receiver.
      if (paid && split.accountId !== undefined && this.deps.incoming !== undefined) {
        const e2e = endToEndId(account.ispb, this.deps.clock.now(), this.deps.rng)
        this.deps.incoming.receive(split.accountId, { amountCents: split.amountCents, payer: { name: account.name, document: account.document, ispb: account.ispb }, endToEndId: e2e, txid: null, scenarios: [] })
        this.store.update('transactions', tx.id, d => { d.endToEndId = e2e })
      }
      this.store.update('transactions', chargeId, d => {
        const s = chargeDraft(d).splits[index]
        s.status = paid ? 'PAID' : 'FAILED'
        s.transactionId = tx.id
        s.dueAt = undefined
      })
    })
  }
}

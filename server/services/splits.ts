import { nextMidnight } from '../domain/calendar.js'
import { normalizeKey } from '../domain/keys.js'
import * as ledger from '../domain/ledger.js'
import type { Account, Mutable, Transaction } from '../store/state.js'
import type { ChargeSplits, Lifecycle, Ports } from '../ports.js'
import type { Restored } from '../store/store.js'
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

export type SplitDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng'>

/**
 * The splits of a paid cash-in (docs/gateway.md §2.6): each is paid out of the receiving account's
 * available balance as a SPLIT transaction, at once (an immediate split, or an account that splits
 * IMMEDIATE) or at the account's next HOURLY or DAILY run. The split's status and due time live on the
 * charge's record (`data.splits`), so a restart or an import schedules what is still due.
 */
export class SplitService implements ChargeSplits, Lifecycle {
  constructor (private readonly deps: SplitDeps) {}

  private get store () { return this.deps.store }

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
      this.scheduleSplit(charge.id, index, dueAt)
    })
  }

  /** After a restart with --data or a snapshot import: the splits still scheduled, again. */
  afterLoad (): void {
    for (const tx of Object.values(this.store.data.transactions)) this.follow(tx)
  }

  /** A rollback put these charges back: the splits they still schedule, again. */
  afterRestore (restored: Restored): void {
    for (const tx of restored.inState('transactions')) this.follow(tx)
  }

  private follow (tx: Transaction): void {
    if (tx.kind !== 'CASH_IN' && tx.kind !== 'COB') return
    chargeData(tx).splits.forEach((s, i) => { if (s.status === 'SCHEDULED' && s.dueAt) this.scheduleSplit(tx.id, i, s.dueAt) })
  }

  private scheduleSplit (chargeId: string, index: number, dueAt: string): void {
    this.deps.scheduler.at(Date.parse(dueAt), 'split-payout', () => {
      // Only the run the charge still schedules: a rollback may have put the split back to waiting
      // for a payment that never happened, or scheduled it again (then the other job pays it).
      const charge = this.store.transaction(chargeId)
      const split = charge ? chargeData(charge).splits[index] : undefined
      if (split?.status === 'SCHEDULED' && split.dueAt === dueAt) this.paySplit(chargeId, index)
    }, `split-payout:${chargeId}:${index}`)
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
      const paid = this.store.ledger(account.id, a => ledger.debitImmediately(a, split.amountCents))
      const entry = this.store.directoryEntry(normalizeKey(split.pixKeyType, split.pixKey))
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
        errorCode: paid ? null : 'PIX_INSUFFICIENT_BALANCE',
        errorMessage: paid ? null : 'Saldo disponível insuficiente para pagar o split',
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
      this.store.update('transactions', chargeId, d => {
        const s = chargeDraft(d).splits[index]
        s.status = paid ? 'PAID' : 'FAILED'
        s.transactionId = tx.id
        s.dueAt = undefined
      })
    })
  }
}

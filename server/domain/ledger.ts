import type { Account, LedgerDraft } from '../store/state.js'
import { MAX_CENTS, TOTAL_LIMIT_CENTS } from './money.js'

/**
 * Balance effects of docs/gateway.md §3.5 on one account, in integer cents. Every function keeps the invariant
 * of docs/assumptions.md (Balances): available >= 0, blocked >= 0, and
 * available + blocked = opening + adjustments + settledIn - settledOut - fees.
 * Functions that can be refused return false and change nothing. The functions that change an account
 * take it as a LedgerDraft, which only the store hands out (`Store.ledger`): the ledger moves money
 * inside the store's write path, never around it.
 */

/** An outgoing payment is created: its amount plus fee moves from available to blocked. */
export function reserve (account: LedgerDraft, cents: number): boolean {
  if (cents <= 0 || account.balance.availableCents < cents) return false
  account.balance.availableCents -= cents
  account.balance.blockedCents += cents
  return true
}

/** An outgoing payment failed: what it had reserved returns to available. */
export function release (account: LedgerDraft, cents: number): void {
  const back = Math.min(cents, account.balance.blockedCents)
  account.balance.blockedCents -= back
  account.balance.availableCents += back
}

/** An outgoing payment was liquidated: its reservation leaves the account for good. */
export function settleOutgoing (account: LedgerDraft, amountCents: number, feeCents: number): void {
  account.balance.blockedCents -= amountCents + feeCents
  account.totals.settledOutCents += amountCents
  account.totals.feesCents += feeCents
}

/** An incoming payment was liquidated. */
export function creditIncoming (account: LedgerDraft, cents: number): void {
  account.balance.availableCents += cents
  account.totals.settledInCents += cents
}

/**
 * Debits available money directly (a split paid out of a received charge, a MED refund): reserve and
 * settle in one step. Returns false, changing nothing, when the available balance does not cover it.
 */
export function debitImmediately (account: LedgerDraft, cents: number): boolean {
  if (!reserve(account, cents)) return false
  settleOutgoing(account, cents, 0)
  return true
}

/**
 * Whether money can arrive: the gross balance stays at most MAX_CENTS (the largest amount anything in
 * the sandbox carries) and settledIn within TOTAL_LIMIT_CENTS. Past them the figures stop being exact
 * cents and the account could no longer be read; a system that holds money refuses the credit instead.
 */
export function canReceive (account: Pick<Account, 'balance' | 'totals'>, cents: number): boolean {
  const { availableCents, blockedCents } = account.balance
  return availableCents + blockedCents + cents <= MAX_CENTS && account.totals.settledInCents + cents <= TOTAL_LIMIT_CENTS
}

export type AdjustProblem = 'NEGATIVE' | 'LIMIT'

/** A control-plane adjustment (fund, set): never below zero available, never past the limits of canReceive. */
export function adjust (account: LedgerDraft, deltaCents: number): AdjustProblem | null {
  if (account.balance.availableCents + deltaCents < 0) return 'NEGATIVE'
  const { availableCents, blockedCents } = account.balance
  if (deltaCents > 0 && availableCents + blockedCents + deltaCents > MAX_CENTS) return 'LIMIT'
  if (Math.abs(account.totals.adjustmentsCents + deltaCents) > TOTAL_LIMIT_CENTS) return 'LIMIT'
  account.balance.availableCents += deltaCents
  account.totals.adjustmentsCents += deltaCents
  return null
}

export function invariantHolds (account: Pick<Account, 'balance' | 'totals'>): boolean {
  const { availableCents, blockedCents } = account.balance
  const t = account.totals
  return availableCents >= 0 && blockedCents >= 0 &&
    Number.isSafeInteger(availableCents) && Number.isSafeInteger(blockedCents) &&
    availableCents + blockedCents === t.openingCents + t.adjustmentsCents + t.settledInCents - t.settledOutCents - t.feesCents
}

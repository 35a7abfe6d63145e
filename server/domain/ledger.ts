import type { Account, LedgerDraft } from '../store/state.js'

/**
 * Balance effects of spec 3.5 on one account, in integer cents. Every function keeps the invariant
 * of DESIGN.md section 4: available >= 0, blocked >= 0, and
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

/** A control-plane adjustment (fund, set): never below zero available. */
export function adjust (account: LedgerDraft, deltaCents: number): boolean {
  if (account.balance.availableCents + deltaCents < 0) return false
  account.balance.availableCents += deltaCents
  account.totals.adjustmentsCents += deltaCents
  return true
}

export function invariantHolds (account: Pick<Account, 'balance' | 'totals'>): boolean {
  const { availableCents, blockedCents } = account.balance
  const t = account.totals
  return availableCents >= 0 && blockedCents >= 0 &&
    Number.isSafeInteger(availableCents) && Number.isSafeInteger(blockedCents) &&
    availableCents + blockedCents === t.openingCents + t.adjustmentsCents + t.settledInCents - t.settledOutCents - t.feesCents
}

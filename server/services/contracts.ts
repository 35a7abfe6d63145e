import type { BrCode } from '../domain/brcode.js'
import type { Payer, Transaction } from '../store/state.js'

/**
 * What one capability asks of another, so pay-outs can pay a charge issued by this sandbox
 * (docs/gateway.md §2.5: a QR code of any account's cash-in or cob) without knowing how charges are kept.
 */
export type { Payer }

export type ChargeLookup =
  | { status: 'payable', charge: Transaction, amountCents: number | null }
  | { status: 'paid', charge: Transaction }
  | { status: 'unavailable', charge: Transaction }

export interface ChargePayments {
  /** The charge a parsed BR Code points at, when this sandbox issued it. */
  chargeForCode (code: BrCode): ChargeLookup | undefined
  /**
   * Pays a payable charge now: concludes it, credits the receiving account, fires its cash_in
   * webhook and runs its splits. Returns the incoming PIX with its endToEndId.
   */
  payCharge (charge: Transaction, payment: { amountCents: number, payer: Payer, endToEndId?: string }): Transaction
}

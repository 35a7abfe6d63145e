import type { AppliedScenario } from '../scenarios/types.js'

/**
 * What happened, in the domain's words: the services emit these, inside the unit that made the
 * change, and each dialect's notifier (server/dialects/) turns them into the webhooks and callbacks of
 * its own shape through the one delivery machinery. An event carries ids and the facts a notifier
 * cannot read back from the records, never a payload: the records are read again, as they stand once
 * the change is made. `scenarios` are the ones whose delivery faults bend the notifications.
 * Types only.
 */
export type DomainEvent =
  /** Money arrived for a charge (cash-in, cob, cobv: paid, or its confirmation refused by PAYMENT_ERROR) or without one (PIX_IN). */
  | { kind: 'pix-received', accountId: number, transactionId: string, scenarios?: readonly AppliedScenario[] }
  /**
   * A charge was created, or ended unpaid: expired, or cancelled by its receiver (the ones a dialect
   * announces, such as Mercado Pago's payment.created and payment.updated).
   */
  | { kind: 'charge-changed', accountId: number, transactionId: string, transition: 'created' | 'expired' | 'cancelled', scenarios?: readonly AppliedScenario[] }
  /** A pay-out ended: settled or failed (its record says which). */
  | { kind: 'payout-changed', accountId: number, transactionId: string, scenarios?: readonly AppliedScenario[] }
  /**
   * A refund ended: `in`, one the account made of a payment it received (a refund-in, a devolução,
   * settled or failed); `out`, a payment it had sent came back (REFUND_RECEIVED).
   */
  | { kind: 'refund-changed', accountId: number, transactionId: string, direction: 'in' | 'out', scenarios?: readonly AppliedScenario[] }
  /**
   * A MED case was opened, rejected or accepted; an acceptance that returned money names the
   * devolução (`refundId`). `transactionId` is the disputed PIX's.
   */
  | { kind: 'med-changed', accountId: number, medId: number, transition: 'created' | 'rejected' | 'accepted', transactionId: string | null, refundId?: string, scenarios?: readonly AppliedScenario[] }
  /** A recurrence of Pix Automático was created or changed status. */
  | { kind: 'recurrence-changed', accountId: number, idRec: string, scenarios?: readonly AppliedScenario[] }
  /** A recurring charge of Pix Automático, or one of its attempts, changed status. */
  | { kind: 'recurring-charge-changed', accountId: number, id: number, txid: string, scenarios?: readonly AppliedScenario[] }

export type DomainEventKind = DomainEvent['kind']

/** Where a service says what happened (the sandbox fans it out to every dialect's notifier, in the registry's order). */
export interface DomainEvents {
  emit (event: DomainEvent): void
}

/**
 * A dialect's ear for the domain's events: zero or more deliveries per event, in the emitting unit
 * (a failure rolls the change back with it).
 */
export interface Notifier {
  notify (event: DomainEvent): void
}

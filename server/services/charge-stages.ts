import type { Derived, InstantRange } from '../store/derived.js'
import { StageLists } from '../store/record-lists.js'
import { isKind, REFUND_KINDS, type Transaction } from '../store/state.js'
import type { Ports } from '../ports.js'

/**
 * Where a charge of a static-style code (a dialect's payment: Mercado Pago's) stands, in the core's
 * words: open (PENDING), paid with nothing refunded, paid and partly refunded, paid and wholly
 * refunded (by refunds settled), expired or cancelled unpaid, or failed otherwise (PAYMENT_ERROR). A
 * dialect names its statuses by these (docs/mercado-pago.md, Search).
 */
export const CHARGE_STAGES = ['open', 'paid', 'partlyRefunded', 'refunded', 'expired', 'cancelled', 'failed'] as const
export type ChargeStage = typeof CHARGE_STAGES[number]

/** The stage of a charge, given the cents its settled refunds returned. */
export function chargeStageOf (charge: Transaction, refundedCents: number): ChargeStage {
  switch (charge.status) {
    case 'PENDING': return 'open'
    case 'CONFIRMED': return refundedCents <= 0 ? 'paid' : refundedCents >= charge.amountCents ? 'refunded' : 'partlyRefunded'
    default: return charge.errorCode === 'EXPIRED' ? 'expired' : charge.errorCode === 'CANCELLED' ? 'cancelled' : 'failed'
  }
}

/** Whether a transaction is a charge of a static-style code (what ChargeService lists as `codeCharges`). */
const isCodeCharge = (tx: Transaction): boolean => tx.kind === 'CASH_IN' && tx.data.mercadoPago !== undefined

export interface ChargeStageDeps extends Pick<Ports, 'store'> {
  /** The cents a received payment's settled refunds returned (RefundService, whose lists are built before these). */
  refundedCents (charge: Transaction): number
}

/**
 * The instants a charge's lists are also kept in the order of, besides its making: its last change
 * (`updatedAt`: made, then paid, expired, cancelled or refused, or its expiry moved) and its payment
 * (when a paid charge received its PIX, for as long as it stays paid). A dialect names its dates by these.
 */
export const CHARGE_INSTANTS = ['updated', 'paid'] as const
export type ChargeInstant = typeof CHARGE_INSTANTS[number]

/** When a charge of a static-style code reached the instant, as it stands now (undefined: it has not). */
export function chargeInstantOf (charge: Transaction, instant: ChargeInstant | 'made'): number | undefined {
  switch (instant) {
    case 'made': return Date.parse(charge.createdAt)
    case 'updated': return Date.parse(charge.updatedAt)
    case 'paid': {
      const received = charge.kind === 'CASH_IN' ? charge.data.received : undefined
      return charge.status === 'CONFIRMED' && received !== undefined ? Date.parse(received.at) : undefined
    }
  }
}

/** What the writers of a charge or of its refunds tell: the charge may have moved to another stage. */
export interface ChargeStageFollower {
  follow (charge: Transaction): void
}

/**
 * Each account's charges of static-style codes by stage (and by stage and external reference), in
 * the order they were made, so that a search by a dialect's status reads a page whatever the number
 * of charges; and each account's charges in the order of their last change and of their payment
 * (`CHARGE_INSTANTS`), so that a search by those dates reads a page or its range. A charge changes
 * stage when it is paid, expires, is cancelled (ChargeService, ChargePaymentService) or a refund of it
 * ends (RefundService); its last change moves with the first three and with a move of its expiry
 * (ChargeService): each tells it here. A rollback or an
 * account's removal names the charges and the refunds it touched: a refund's charge is followed too.
 */
export class ChargeStages implements ChargeStageFollower {
  private readonly byStage: StageLists<'transactions'>
  private readonly byReference: StageLists<'transactions'>
  /** Each account's charges in the order of each instant, which moves only with a write that tells it here. */
  private readonly byInstant: Record<ChargeInstant, StageLists<'transactions'>>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: ChargeStageDeps) {
    const created = (tx: Transaction): number | undefined => isCodeCharge(tx) ? Date.parse(tx.createdAt) : undefined
    const tie = (tx: Transaction): number => tx.seq
    this.byStage = new StageLists(deps.store, 'transactions', { list: tx => stageKey(tx.accountId, this.stageOf(tx)), reached: created, tie })
    this.byReference = new StageLists(deps.store, 'transactions', {
      list: tx => stageKey(tx.accountId, this.stageOf(tx), referenceOf(tx)),
      reached: tx => referenceOf(tx) === undefined ? undefined : created(tx),
      tie,
    })
    const at = (instant: ChargeInstant) => (tx: Transaction): number | undefined => isCodeCharge(tx) ? chargeInstantOf(tx, instant) : undefined
    this.byInstant = {
      updated: new StageLists(deps.store, 'transactions', { list: tx => String(tx.accountId), reached: at('updated'), tie }),
      paid: new StageLists(deps.store, 'transactions', { list: tx => String(tx.accountId), reached: at('paid'), tie }),
    }
    const lists = [this.byStage, this.byReference, ...Object.values(this.byInstant)]
    this.derived = [{
      collection: 'transactions',
      rebuild: () => { for (const l of lists) l.rebuild() },
      mend: records => {
        const named = this.withCharges(records as readonly Transaction[])
        for (const l of lists) l.mend(named)
      },
    }]
  }

  /**
   * How many of an account's charges (those of one external reference) in any of the stages were
   * created within the range, and `limit` of them from the `offset`-th, the last made first when
   * `newestFirst`: in the order made (their creation, then their seq), what costs the page.
   */
  page (accountId: number, stages: readonly ChargeStage[], externalReference: string | undefined, created: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, charges: Transaction[] } {
    const lists = externalReference === undefined ? this.byStage : this.byReference
    const page = lists.pageWithin(stages.map(stage => stageKey(accountId, stage, externalReference)), created, offset, limit, newestFirst)
    return { total: page.total, charges: page.records }
  }

  /**
   * How many of an account's charges reached the instant within the range, and `limit` of them from
   * the `offset`-th in its order (then the order made), the latest first when `newestFirst`: what costs the page.
   */
  pageBy (accountId: number, instant: ChargeInstant, range: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, charges: Transaction[] } {
    const page = this.byInstant[instant].pageWithin([String(accountId)], range, offset, limit, newestFirst)
    return { total: page.total, charges: page.records }
  }

  /** An account's charges that reached the instant within the range, in its order: what costs the answer. */
  within (accountId: number, instant: ChargeInstant, range: InstantRange): Transaction[] {
    return this.byInstant[instant].within(String(accountId), range)
  }

  follow (charge: Transaction): void {
    this.byStage.follow(charge)
    this.byReference.follow(charge)
    for (const lists of Object.values(this.byInstant)) lists.follow(charge)
  }

  private stageOf (tx: Transaction): ChargeStage {
    return chargeStageOf(tx, tx.status === 'CONFIRMED' ? this.deps.refundedCents(tx) : 0)
  }

  /** The records named, and the charge of each refund among them (its stage moves with its refunds), once. */
  private withCharges (records: readonly Transaction[]): Transaction[] {
    const named = new Set(records)
    for (const record of records) {
      if (!isKind(record, REFUND_KINDS)) continue
      const charge = this.deps.store.transaction(record.data.originalId)
      if (charge !== undefined && isCodeCharge(charge)) named.add(charge)
    }
    return [...named]
  }
}

const referenceOf = (tx: Transaction): string | undefined => tx.kind === 'CASH_IN' ? tx.data.mercadoPago?.externalReference : undefined
const stageKey = (accountId: number, stage: ChargeStage, reference?: string): string => reference === undefined ? `${accountId}\u0000${stage}` : `${accountId}\u0000${stage}\u0000${reference}`

import { parseBrCode, type BrCode } from '../domain/brcode.js'
import { endToEndId } from '../domain/ids.js'
import * as ledger from '../domain/ledger.js'
import { amountMessage, centsToString, parseAmount } from '../domain/money.js'
import { Refusal } from '../errors/refusal.js'
import type { ChargeStageFollower } from './charge-stages.js'
import type { Account, Payer, Transaction } from '../store/state.js'
import { hasScenario, scenarioParam } from '../../scenarios/resolver.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import type { Arrival, ArrivingPayment, ChargeAutoPay, ChargeLookup, ChargePayments, ChargeSplits, ContractCodeArrival, ContractCodePayments, ContractCodes, Lifecycle, LocatedCharges, Ports, RecurrenceActivations } from '../ports.js'
import { DueJobs, type Derived } from '../store/derived.js'
import type { Config } from '../config.js'
import { iso, recordTransition } from './history.js'
import { cobvDue, cobvDueDate } from '../domain/cobv.js'
import { readRecurrenceCode } from '../domain/rec-codes.js'
import { codeAmount } from '../domain/qrcode-payment.js'
import { saoPauloTime } from '../domain/calendar.js'
import { cannotReceive, chargeData, chargeDraft, DEFAULT_PAYER, isOpenCharge, payerCounterpart, receivedOf, simulatedPayer } from './charge-records.js'
import type { ReceivedPixService } from './received-pix.js'

/** A payment of a charge: how much, who pays, its endToEndId when the payer's side chose it, and the code paid when it was one. */
export type PaymentOf = { amountCents: number, payer: Payer, endToEndId?: string, pixCode?: string }

export interface PayByCodeInput {
  pixCode: string
  amount?: number
  payer?: { name: string, document: string, ispb?: string }
}

export type ChargePaymentDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng' | 'fixtures' | 'events'> & {
  config: Pick<Config, 'settlementDelayMs'>
  splits: ChargeSplits
  /** A PIX received with no charge behind it (what a static code of a contract pays), and the list of those received, which a charge paid joins. */
  received: Pick<ReceivedPixService, 'receive' | 'follow'>
  /** The charges' stages (charge-stages.ts), which a charge paid (or refused by PAYMENT_ERROR) moves through. */
  stages: ChargeStageFollower
  /** API Pix's payload locations, whose codes a pay-out may pay too; without them, only the charges' own locations count. */
  locations?: LocatedCharges
  /** Pix Automático's recurrences, which a cob or cobv paid through a composite code activates (journeys 3 and 4). */
  recurrences?: RecurrenceActivations
  /** Pix Automático's static codes of a contract: the account one pays, and the recurrence it activates (journey 4). */
  contractCodes?: ContractCodes
}

/**
 * Paying the charges ChargeService makes (charges.ts): the charge a code points at, its payment by a
 * payer outside the sandbox (`/__sandbox/pix/pay`, AUTO_PAY) or by a pay-out of another account, the
 * credit, the splits, and the recurrence a composite code activates; and the static code of a
 * contract of Pix Automático, which pays its account a PIX of its own (received-pix.ts).
 */
export class ChargePaymentService implements Lifecycle {
  /** AUTO_PAY: an open charge paid at its `autoPayAt`. */
  private readonly autoPayment: DueJobs<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: ChargePaymentDeps) {
    this.autoPayment = new DueJobs(deps.store, deps.scheduler, 'transactions', {
      purpose: 'charge-auto-pay',
      dueAt: tx => {
        const at = isOpenCharge(tx) ? this.autoPayAtOf(tx) : undefined
        return at === undefined ? undefined : Date.parse(at)
      },
      run: tx => this.payWhenDue(tx.id),
    })
    this.derived = [this.autoPayment]
  }

  /** What a pay-out sees of the charges (ChargePayments): which charge a code points at, and the hand-over of its payment. */
  readonly payments: ChargePayments = {
    chargeForCode: code => this.chargeForCode(code),
    arrive: payment => this.arrive(payment),
  }

  /** What a pay-out sees of the static codes of a contract (ContractCodePayments): the account one pays, and the hand-over of its payment. */
  readonly contractPayments: ContractCodePayments = {
    receiverOf: pixCode => {
      const parsed = parseBrCode(pixCode)
      return parsed.ok ? this.contractOf(pixCode, parsed.value)?.receiverId : undefined
    },
    arrive: payment => this.arriveByContract(payment),
  }

  /** What the charges tell of a charge made or changed (ChargeAutoPay): its AUTO_PAY instant kept on it, and its job following it. */
  readonly autoPay: ChargeAutoPay = {
    follow: charge => {
      const autoPayAt = isOpenCharge(charge) && chargeData(charge).autoPayAt === undefined ? this.autoPayAtOf(charge) : undefined
      if (autoPayAt !== undefined) this.store.update('transactions', charge.id, d => { chargeDraft(d).autoPayAt = autoPayAt })
      this.autoPayment.follow(charge)
    },
  }

  private get store () { return this.deps.store }
  private now (): number { return this.deps.clock.now() }

  /** The charge a parsed BR Code points at (by its location, else by its txid), of any account. */
  chargeForCode (code: BrCode): ChargeLookup | undefined {
    const charge = code.location !== undefined
      ? this.store.transactionByRef(`loc:${code.location}`) ?? this.deps.locations?.chargeAt(code.location)
      : code.txid !== undefined ? this.store.transactionByRef(`txid:${code.txid}`) : undefined
    if (!charge || (charge.kind !== 'CASH_IN' && charge.kind !== 'COB' && charge.kind !== 'COBV')) return undefined
    return this.lookupOf(charge)
  }

  private lookupOf (charge: Transaction): ChargeLookup {
    if (charge.status === 'CONFIRMED' || charge.status === 'CONCLUIDA') return { status: 'paid', charge }
    if (!this.isPayable(charge)) return { status: 'unavailable', charge }
    // A cobv is paid the amount due on the day it is paid (São Paulo's day on the sandbox clock).
    if (charge.kind === 'COBV') {
      const due = cobvDue(charge.data.cobv, saoPauloTime(this.now()).day)
      return due.payable ? { status: 'payable', charge, amountCents: due.amounts.final } : { status: 'unavailable', charge }
    }
    const cob = chargeData(charge).cob
    return { status: 'payable', charge, amountCents: cob && cob.modalidadeAlteracao === 1 ? null : charge.amountCents }
  }

  private isPayable (charge: Transaction): boolean {
    return isOpenCharge(charge) && (charge.dueAt === undefined || Date.parse(charge.dueAt) > this.now())
  }

  /**
   * Pays a payable charge now: cash-in CONFIRMED, cob CONCLUIDA, the account credited, `cash_in`
   * said (`pix-received`), splits run. With PAYMENT_ERROR armed on the charge the provider fails the
   * confirmation instead: the charge ends ERROR (cob REMOVIDA_PELO_PSP), nothing is credited, and the
   * webhook reports the error. Throws 422 QRCODE_ALREADY_PAID / QRCODE_NOT_AVAILABLE, 400 on a wrong amount.
   */
  payCharge (charge: Transaction, payment: PaymentOf, deliveryScenarios: readonly AppliedScenario[] = []): Transaction {
    return this.store.transact(() => this.pay(charge, payment, deliveryScenarios))
  }

  private pay (charge: Transaction, payment: PaymentOf, deliveryScenarios: readonly AppliedScenario[]): Transaction {
    const lookup = this.lookupOf(charge)
    if (lookup.status === 'paid') throw new Refusal('QRCODE_ALREADY_PAID', 'This charge is already paid')
    if (lookup.status === 'unavailable') throw new Refusal('QRCODE_NOT_AVAILABLE', `This charge cannot be paid (${charge.status})`)
    if (!Number.isSafeInteger(payment.amountCents) || payment.amountCents < 1) throw new Refusal('PIX_INVALID_AMOUNT', 'The payment amount must be at least 0.01')
    if (lookup.amountCents !== null && payment.amountCents !== lookup.amountCents) {
      throw new Refusal('PIX_AMOUNT_MISMATCH', `The amount paid (${centsToString(payment.amountCents)}) differs from the charge's (${centsToString(lookup.amountCents)})`)
    }
    const account = this.store.account(charge.accountId)
    if (!account) throw new Refusal('NOT_FOUND', 'Receiving account not found')
    if (!ledger.canReceive(account, payment.amountCents)) throw cannotReceive()
    const now = this.now()
    const e2e = payment.endToEndId ?? endToEndId(payment.payer.ispb, now, this.deps.rng)
    const failed = hasScenario(charge.scenarios, 'PAYMENT_ERROR')
    this.store.update('transactions', charge.id, d => {
      const data = chargeDraft(d)
      data.received = { endToEndId: e2e, amountCents: payment.amountCents, payer: { ...payment.payer }, at: iso(now) }
      data.autoPayAt = undefined
      d.dueAt = undefined
      d.endToEndId = e2e
      d.counterpart = payerCounterpart(payment.payer)
      const settled = d.kind === 'COB' || d.kind === 'COBV'
      if (failed) {
        d.errorCode = 'PAYMENT_ERROR'
        d.errorMessage = 'O provedor recusou a confirmação do pagamento'
        recordTransition(d, settled ? 'REMOVIDA_PELO_PSP' : 'ERROR', iso(now), 'PAYMENT_ERROR')
      } else {
        recordTransition(d, settled ? 'CONCLUIDA' : 'CONFIRMED', iso(now), 'paid')
      }
    })
    // A payer of this sandbox shares the endToEndId with its outgoing record; this ref always finds the receiving side.
    this.store.addRef(charge.id, `e2e-in:${e2e}`)
    // Paid, the charge is a PIX its account received (not when the provider refused it: PAYMENT_ERROR).
    this.deps.received.follow(this.store.transaction(charge.id)!)
    this.deps.stages.follow(this.store.transaction(charge.id)!)
    const scenarios = [...(charge.scenarios ?? []), ...deliveryScenarios]
    if (!failed) this.store.ledger(account.id, a => ledger.creditIncoming(a, payment.amountCents))
    // The payment, or its refusal by the provider, said once: the dialects notify it.
    this.deps.events.emit({ kind: 'pix-received', accountId: charge.accountId, transactionId: charge.id, scenarios })
    if (failed) return charge
    this.deps.splits.runSplits(charge, account)
    if (payment.pixCode !== undefined) this.paidWithRecurrence(charge, payment.pixCode, payment.payer, now)
    return charge
  }

  /** A cob or cobv paid through a composite code: the recurrence its tag 80 carries hears of it (journeys 3 and 4). */
  private paidWithRecurrence (charge: Transaction, pixCode: string, payer: Payer, now: number): void {
    if (this.deps.recurrences === undefined || (charge.kind !== 'COB' && charge.kind !== 'COBV')) return
    const code = readRecurrenceCode(pixCode)
    if (!code.ok) return
    const onTime = charge.kind === 'COB' || saoPauloTime(now).day <= cobvDueDate(charge.data.cobv.calendario.dataDeVencimento)
    this.deps.recurrences.chargePaid({ accountId: charge.accountId, kind: charge.kind, txid: charge.data.txid, recLocation: code.recLocation, payer: { ispb: payer.ispb }, onTime })
  }

  /**
   * A payment from an account of this sandbox (a QR cash-out settling) arrives at its charge. A refusal
   * (a wrong amount, an account that cannot hold the money) rolls back with the payment's unit and
   * credits nothing; PAYMENT_ERROR ends the charge in error, with its webhook, and the payer is refused too.
   */
  private arrive (payment: ArrivingPayment): Arrival {
    const charge = this.store.transaction(payment.chargeId)
    if (!charge || this.lookupOf(charge).status !== 'payable') return 'unavailable'
    let paid: Transaction
    try {
      paid = this.payCharge(charge, payment)
    } catch {
      return 'refused'
    }
    return receivedOf(paid) !== undefined ? 'taken' : 'refused'
  }

  /** POST /__sandbox/pix/pay: what a payer's bank app does with a copy-and-paste code. */
  payByCode (input: PayByCodeInput, scenariosOf: (accountId: number) => AppliedScenario[]): Transaction {
    const parsed = parseBrCode(input.pixCode)
    if (!parsed.ok) throw new Refusal('INVALID_PIX_CODE', `Invalid pixCode: ${parsed.english}`)
    const contract = this.contractOf(input.pixCode, parsed.value)
    if (contract !== undefined) {
      const account = this.store.account(contract.receiverId)!
      const scenarios = scenariosOf(account.id)
      const amountCents = this.amountToPay(input, parsed.value, null)
      if (!ledger.canReceive(account, amountCents)) throw cannotReceive()
      const payer = simulatedPayer(input.payer, this.deps.fixtures.institution)
      return this.store.transact(() => this.receiveByContract(account, { amountCents, payer, endToEndId: endToEndId(payer.ispb, this.now(), this.deps.rng) }, parsed.value, contract.recLocation, scenarios))
    }
    const lookup = this.chargeForCode(parsed.value)
    if (!lookup) throw new Refusal('CHARGE_NOT_FOUND', 'No charge of this sandbox matches this code')
    const scenarios = scenariosOf(lookup.charge.accountId)
    const amountCents = lookup.status === 'payable' ? this.amountToPay(input, parsed.value, lookup.amountCents) : this.amountToPay(input, parsed.value, null, lookup.charge.amountCents)
    return this.payCharge(lookup.charge, { amountCents, payer: simulatedPayer(input.payer, this.deps.fixtures.institution), pixCode: input.pixCode }, scenarios)
  }

  /**
   * What the payer pays for a code: the amount given, else what the charge asks now (`due`, its
   * payload's; null when the payer names it), else a static code's own (`codeAmount`), else `settled`
   * (a charge no longer payable, which refuses the payment itself); never another amount than a static
   * code's. A given amount other than the charge's is refused by the payment itself.
   */
  private amountToPay (input: PayByCodeInput, code: BrCode, due: number | null, settled?: number): number {
    const stated = codeAmount(code)
    let amountCents: number
    if (input.amount !== undefined) {
      const amount = parseAmount(input.amount)
      if (!amount.ok) throw new Refusal('PIX_INVALID_AMOUNT', amountMessage('amount', amount.reason, 'en'))
      amountCents = amount.cents
    } else if (due !== null) {
      amountCents = due
    } else if (stated !== undefined) {
      amountCents = stated
    } else if (settled === undefined) {
      throw new Refusal('PIX_INVALID_AMOUNT', 'The payer names the amount of this code: give amount')
    } else {
      amountCents = settled
    }
    if (stated !== undefined && amountCents !== stated) {
      throw new Refusal('PIX_AMOUNT_MISMATCH', `The amount given (${centsToString(amountCents)}) differs from the code's (${centsToString(stated)})`)
    }
    return amountCents
  }

  // ---- the static code of a contract (Pix Automático, journey 4) -----------------------------------

  /** The account of this sandbox a static code of a contract pays (its tag 80 a location of that account's recurrences, its key one the account holds), or undefined for any other code. */
  private contractOf (pixCode: string, code: BrCode): { receiverId: number, recLocation: string } | undefined {
    if (code.key === undefined || this.deps.contractCodes === undefined) return undefined
    const rec = readRecurrenceCode(pixCode)
    if (!rec.ok) return undefined
    const receiverId = this.deps.contractCodes.receiverOf(rec.recLocation, code.key)
    return receiverId === undefined ? undefined : { receiverId, recLocation: rec.recLocation }
  }

  /**
   * A PIX paid through the static code of a contract: received on the code's key (its txid the code's,
   * if any), credited and announced as any received PIX; then, in the same unit, the payer answers the
   * recurrence the code carries (journey 4).
   */
  private receiveByContract (account: Account, payment: Required<Omit<PaymentOf, 'pixCode'>>, code: BrCode, recLocation: string, scenarios: AppliedScenario[]): Transaction {
    const tx = this.deps.received.receive(account, payment.amountCents, payment.payer, scenarios, { txid: code.txid ?? null, endToEndId: payment.endToEndId, chave: code.key })
    this.deps.contractCodes?.paid({ accountId: account.id, recLocation, payer: { ispb: payment.payer.ispb } })
    return tx
  }

  /** A cash-out by QR code of another account, settling, arrives at the account a static code of a contract pays. */
  private arriveByContract (payment: ContractCodeArrival): Arrival {
    const account = this.store.account(payment.receiverId)
    const parsed = parseBrCode(payment.pixCode)
    const contract = parsed.ok ? this.contractOf(payment.pixCode, parsed.value) : undefined
    if (account === undefined || !parsed.ok || contract?.receiverId !== account.id) return 'unavailable'
    if (!ledger.canReceive(account, payment.amountCents)) return 'refused'
    this.store.transact(() => this.receiveByContract(account, payment, parsed.value, contract.recLocation, []))
    return 'taken'
  }

  // ---- AUTO_PAY -----------------------------------------------------------------------------------

  /** When AUTO_PAY pays a charge: as it keeps it, or, for a charge of a document written before it kept it, its delay from its creation. */
  private autoPayAtOf (charge: Transaction): string | undefined {
    const kept = chargeData(charge).autoPayAt
    if (kept !== undefined || !hasScenario(charge.scenarios, 'AUTO_PAY')) return kept
    return iso(Date.parse(charge.createdAt) + scenarioParam(charge.scenarios, 'AUTO_PAY', 'ms', this.deps.config.settlementDelayMs))
  }

  /** The job looks the charge up again and does nothing if it moved on. */
  private payWhenDue (id: string): void {
    const charge = this.store.transaction(id)
    if (!charge) return
    const lookup = this.lookupOf(charge)
    if (lookup.status !== 'payable') return
    this.payCharge(charge, { amountCents: lookup.amountCents ?? charge.amountCents, payer: DEFAULT_PAYER })
  }
}

import { endToEndId } from '../domain/ids.js'
import * as ledger from '../domain/ledger.js'
import { amountMessage, parseAmount } from '../domain/money.js'
import { Refusal } from '../errors/refusal.js'
import type { Account, Payer, Transaction } from '../store/state.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import type { IncomingPix, Lifecycle, Ports } from '../ports.js'
import { type Derived, type InstantRange } from '../store/derived.js'
import { StageLists } from '../store/record-lists.js'
import { bankNameOf, cannotReceive, newChargeRecord, payerCounterpart, receivedOf, simulatedPayer } from './charge-records.js'
import { iso } from './history.js'

/** The ids of a received PIX: its endToEndId, and the txid and key of the code it paid when there was one. */
export interface ReceivedIds {
  txid: string | null
  endToEndId: string
  chave?: string
}

export type ReceivedPixDeps = Pick<Ports, 'store' | 'clock' | 'rng' | 'fixtures' | 'events'>

/**
 * A PIX that arrives with no charge behind it (kind PIX_IN, CONFIRMED): one the control plane sends
 * (`/__sandbox/pix/incoming`), a debit of Pix Automático or a split paid to an account of this sandbox
 * (`incoming`), and a payment through the static code of a contract (charge-payments.ts).
 */
export class ReceivedPixService implements Lifecycle {
  /**
   * The PIX each account received (a PIX_IN, and a charge once paid: money that arrived, `receivedOf`),
   * in the order they arrived (`received.at`, the `horario` GET /pix windows on). A charge is paid by
   * charge-payments.ts, which tells it here (`follow`).
   */
  private readonly arrived: StageLists<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: ReceivedPixDeps) {
    this.arrived = new StageLists(deps.store, 'transactions', {
      list: tx => String(tx.accountId),
      reached: tx => {
        const received = receivedOf(tx)
        return received === undefined ? undefined : Date.parse(received.at)
      },
      tie: tx => tx.seq,
    })
    this.derived = [this.arrived]
  }

  /** The PIX the account received within the range (by `received.at`), in the order they arrived. */
  receivedWithin (accountId: number, arrived: InstantRange): Transaction[] {
    return this.arrived.within(String(accountId), arrived)
  }

  /** After a write that may have made it received (a charge paid): the record is listed while its money has arrived. */
  follow (tx: Transaction): void {
    this.arrived.follow(tx)
  }

  /** POST /__sandbox/pix/incoming: a PIX from a payer outside the sandbox. */
  receiveUnsolicited (account: Account, amount: number, payerInput: { name: string, document: string, ispb?: string } | undefined, scenarios: AppliedScenario[]): Transaction {
    const parsed = parseAmount(amount)
    if (!parsed.ok) throw new Refusal('PIX_INVALID_AMOUNT', amountMessage('amount', parsed.reason, 'en'))
    if (!ledger.canReceive(account, parsed.cents)) throw cannotReceive()
    const payer = simulatedPayer(payerInput, this.deps.fixtures.institution)
    return this.deps.store.transact(() => this.receive(account, parsed.cents, payer, scenarios, { txid: null, endToEndId: endToEndId(payer.ispb, this.deps.clock.now(), this.deps.rng) }))
  }

  /** What recurring charges and splits hand over (IncomingPix): a payment a payer's PSP made, received as a PIX of its own. */
  readonly incoming: IncomingPix = {
    receive: (accountId, payment) => {
      const account = this.deps.store.account(accountId)
      if (!account || !ledger.canReceive(account, payment.amountCents)) return null
      const { name, document, ispb } = payment.payer
      const payer: Payer = { name, document, ispb, bankName: bankNameOf(ispb, this.deps.fixtures.institution) }
      return this.deps.store.transact(() => this.receive(account, payment.amountCents, payer, [...payment.scenarios], { txid: payment.txid, endToEndId: payment.endToEndId }))
    },
  }

  /**
   * A received PIX recorded, credited and announced (`pix-received`), inside the caller's unit; the
   * caller has checked that the account can hold it.
   */
  receive (account: Account, cents: number, payer: Payer, scenarios: AppliedScenario[], ids: ReceivedIds): Transaction {
    const { store } = this.deps
    const now = this.deps.clock.now()
    const e2e = ids.endToEndId
    const draft = newChargeRecord(this.deps, account, {
      kind: 'PIX_IN',
      data: { txid: ids.txid, location: null, pixCode: null, splits: [], received: { endToEndId: e2e, amountCents: cents, payer, at: iso(now) }, ...(ids.chave !== undefined ? { chave: ids.chave } : {}) },
    }, 'CONFIRMED', cents, now, scenarios)
    draft.endToEndId = e2e
    draft.counterpart = payerCounterpart(payer)
    const tx = store.addTransaction(draft, undefined, [`e2e-in:${e2e}`])
    this.arrived.follow(tx)
    store.ledger(account.id, a => ledger.creditIncoming(a, cents))
    this.deps.events.emit({ kind: 'pix-received', accountId: tx.accountId, transactionId: tx.id, scenarios })
    return tx
  }
}

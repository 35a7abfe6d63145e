import type { Config } from './config.js'
import type { AsyncErrorCode } from './domain/async-errors.js'
import type { BrCode } from './domain/brcode.js'
import type { IsoDate } from './domain/business-days.js'
import type { CnpjForm, CobRequest, CobRevision, Devedor, InfoAdicional } from './domain/cob.js'
import type { RecAtivacao, RecStatus, RecTerms } from './domain/rec.js'
import type { RecEncerramento } from './domain/rec-lifecycle.js'
import type { AppliedScenario } from '../scenarios/types.js'
import type { SeededRng } from './domain/ids.js'
import type { Clock } from './engine/clock.js'
import type { Scheduler } from './engine/scheduler.js'
import type { Fixtures } from './fixtures.js'
import type { DomainEvents } from './events.js'
import type { Store } from './store/store.js'
import type { Account, CobVBatchItemStatus, CobVData, Counterpart, DeepReadonly, MtlsCheck, Payer, PayloadLocation, Transaction, TransactionKind, TransactionOf } from './store/state.js'
import type { JournalEntry, JournalFilter, Since } from './journal/journal.js'
import type { DeliveryFilter } from './webhooks/delivery-log.js'
import type { ApiPixCallback, Delivery, EventType, WebhookEvent, WebhookRegistration } from './webhooks/types.js'

/**
 * The ports: what a service may be given. Each service declares the few it uses
 * (`Pick<Ports, 'store' | 'clock'> & { charges: ChargePayments }`) and `createSandbox` (sandbox.ts)
 * hands them over in order, so a service can be built alone in a test with fakes for its neighbours.
 * Types only: this file runs nothing, and nothing it imports imports a service.
 */
export interface Ports {
  config: Config
  clock: Clock
  scheduler: Scheduler
  rng: SeededRng
  store: Store
  fixtures: Fixtures
  /** Where a capability says what happened (server/events.ts); the dialects' notifiers turn it into webhooks. */
  events: DomainEvents
}

/**
 * What a service keeps in memory besides the store, and how it follows the state: what it derives
 * from records, rebuilt and mended for it, and hooks for the rest (`store/lifecycle.ts`).
 */
export type { Lifecycle } from './store/lifecycle.js'

// ---- what one capability asks of another -----------------------------------------------------------

export type ChargeLookup =
  | { status: 'payable', charge: Transaction, amountCents: number | null }
  | { status: 'paid', charge: Transaction }
  | { status: 'unavailable', charge: Transaction }

/** A PIX that an account of this sandbox pays to a charge of this sandbox: who pays, how much, under which endToEndId. */
export interface ArrivingPayment {
  chargeId: string
  amountCents: number
  payer: Payer
  endToEndId: string
  /** The code paid, when it was a QR code: a composite one carries a recurrence too. */
  pixCode?: string
}

/**
 * What the receiving side answers a payment: `taken` (the receiver was credited), `refused` (its provider
 * refused the confirmation, or its account cannot hold the money: nothing credited) or `unavailable` (the
 * charge can no longer be paid: paid, expired or removed meanwhile).
 */
export type Arrival = 'taken' | 'refused' | 'unavailable'

/**
 * What pay-outs ask of charges, so they can pay a charge issued by this sandbox (docs/gateway.md §2.5:
 * a QR code of any account's cash-in or cob) without knowing how charges are kept: which charge a code
 * points at, and the hand-over of the payment. What paying does to the charge (its status, the credit,
 * its cash_in webhook, its splits) happens behind this port.
 */
export interface ChargePayments {
  /** The charge a parsed BR Code points at, when this sandbox issued it. */
  chargeForCode (code: BrCode): ChargeLookup | undefined
  /** The payment arrives at its charge, which takes it or not. */
  arrive (payment: ArrivingPayment): Arrival
}

/** The holder of a key the directory lists, and the status of that holder's account (docs/gateway.md §6.4 errors). */
export interface ListedHolder {
  counterpart: Counterpart
  accountStatus: 'ACTIVE' | 'BLOCKED' | 'CLOSED'
}

/**
 * What pay-outs ask of the key directory (docs/gateway.md §2.3): who holds the key they pay. A key the
 * directory does not list is paid to a holder the sandbox invents, at another institution than the
 * payer's, derived from the seed and the destination (the key, and the document and name sent): the same
 * destination reaches the same holder, bank and account, whatever was paid before and after a restart,
 * a snapshot import or a reset.
 */
export interface KeyHolders {
  /** By the key's canonical form in the directory; undefined when the directory does not list it. */
  listed (directoryKey: string): ListedHolder | undefined
  invented (destination: { key?: string, document?: string, name?: string }, payerIspb: string): Counterpart
}

/**
 * What charges ask of API Pix's payload locations (docs/api-pix.md): the charge a location serves now,
 * so a code whose location is one of them pays that charge (and none once it was unbound).
 */
export interface LocatedCharges {
  chargeAt (location: string): Transaction | undefined
}

/**
 * What API Pix asks of the cobs it shares with the gateway (the same records): create one served
 * at one of its payload locations, revise it, find it.
 */
export interface CobWrites {
  createCob (account: Account, txid: string | null, body: CobRequest, scenarios: AppliedScenario[], at: { locId: number, location: string }): TransactionOf<'COB'>
  reviseCob (account: Account, txid: string, body: CobRevision, cnpj: CnpjForm): TransactionOf<'COB'>
  cob (account: Account, txid: string): TransactionOf<'COB'>
  findCob (account: Account, txid: string): TransactionOf<'COB'> | undefined
}

/** A due charge's fields as API Pix's cobv service checked them (server/domain/cobv.ts): its record but for its location and revision. */
export type CobVFields = Omit<CobVData, 'locId' | 'revisao'>

/**
 * What API Pix's due charges (cobv) ask of the charges service, which keeps and pays them as it does
 * the cobs: create one served at one of API Pix's payload locations, replace its fields, cancel it,
 * find it.
 */
export interface CobVWrites {
  createCobV (account: Account, txid: string, fields: CobVFields, scenarios: AppliedScenario[], at: { locId: number, location: string }): TransactionOf<'COBV'>
  reviseCobV (charge: TransactionOf<'COBV'>, fields: CobVFields): TransactionOf<'COBV'>
  cancelCobV (charge: TransactionOf<'COBV'>): TransactionOf<'COBV'>
  findCobV (account: Account, txid: string): TransactionOf<'COBV'> | undefined
  /** A page of the cobvs of every account or one, the last made first, from the `nextCursor` of the page before: an index, whatever their number. */
  newestCobVs (accountId: number | undefined, limit: number, cursor?: number): { records: Array<TransactionOf<'COBV'>>, nextCursor?: number }
}

/** DadosDevedor as API Pix writes it: a person or a company, with optional contact and address. */
export type CobVDevedor = Devedor & { email?: string, logradouro?: string, cidade?: string, uf?: string, cep?: string }

/** A cobv as API Pix asks for it (CobVSolicitada): `calendario` and `valor` as received, for server/domain/cobv.ts to check. */
export interface CobVRequest {
  calendario: unknown
  valor: unknown
  devedor: CobVDevedor
  chave: string
  solicitacaoPagador?: string
  infoAdicionais?: InfoAdicional[]
  loc?: { id: number }
}

/** A revision of a cobv (CobVRevisada): any member; the status alone removes the charge. */
export interface CobVRevisionRequest {
  calendario?: unknown
  valor?: unknown
  devedor?: CobVDevedor
  chave?: string
  solicitacaoPagador?: string
  infoAdicionais?: InfoAdicional[]
  loc?: { id: number }
  status?: 'REMOVIDA_PELO_USUARIO_RECEBEDOR'
}

/** Who asks for a cobv: a client of the account, or the batch (lotecobv) whose request it is, with the scenarios it applied. */
export interface CobVRequester {
  /** The batch processing this request: its own hold on the txid does not refuse it, and the cobv it creates is its. */
  batch?: number
  scenarios?: AppliedScenario[]
}

/**
 * What API Pix's batches of due charges (lotecobv) ask of its cobvs: each request of a batch is
 * processed as PUT or PATCH /cobv/{txid} would process it, with the same refusals.
 */
export interface CobVRequests {
  put (account: Account, txid: string, body: CobVRequest, host: string, by: CobVRequester): { charge: TransactionOf<'COBV'>, created: boolean }
  revise (account: Account, txid: string, body: CobVRevisionRequest, by: CobVRequester): TransactionOf<'COBV'>
}

/** A batch (lotecobv) that names a txid among its requests, and where that request stands. */
export interface CobVBatchHold {
  batchId: number
  status: CobVBatchItemStatus
}

/** What API Pix's cobvs ask of its batches (CobVBatchService): which batch of an account names a txid. */
export interface CobVBatchHolds {
  /** The account's batch (other than `except`) that names `txid` among its requests, if any. */
  holding (accountId: number, txid: string, except?: number): CobVBatchHold | undefined
}

/** What API Pix's cobs ask of its payload locations (LocationService). */
export interface PayloadLocations {
  /** A new location at `host`, serving nothing yet. */
  create (account: Account, tipoCob: 'cob' | 'cobv', host: string): PayloadLocation
  /** The location `loc.id` names for a new charge, or API Pix's refusal naming loc.id. */
  usable (account: Account, id: number, tipoCob: 'cob' | 'cobv'): PayloadLocation
  bind (id: number, chargeId: string): void
  /** The location a charge is served at, while it is bound to it. */
  ofCharge (charge: Transaction): PayloadLocation | undefined
  /** Whether a charge's loc.id is one of the locations (bound to it or not), rather than the gateway's own URL. */
  isLocated (charge: Transaction): boolean
  /** The location of a token, whatever host a payer used to reach it. */
  byTokenOf (token: string): PayloadLocation | undefined
  charge (loc: PayloadLocation): Transaction | undefined
}

/** What API Pix's payloads ask of their signature: a compact JWS naming where its key is published. */
export interface PayloadSigning {
  sign (payload: Record<string, unknown>, jku: string): string
}

/**
 * What charges ask of splits: a charge was just paid and credited; pay its splits out now or at the
 * account's next split run (docs/gateway.md §2.6).
 */
/** AUTO_PAY of the charges (charge-payments.ts): a charge made or changed keeps its instant, and its job follows it. */
export interface ChargeAutoPay {
  follow (charge: Transaction): void
}

export interface ChargeSplits {
  runSplits (charge: Transaction, account: Account): void
}

/** A received payment by transactionId or endToEndId (refund-in, devolução, MED). */
export interface ReceivedPayments {
  findReceived (idOrEndToEndId: string): Transaction | undefined
}

/** What the reads of received PIX ask of refunds: the refunds of a received payment (its devoluções). */
export interface RefundReads {
  refundsOf (original: Transaction): Transaction[]
}

/**
 * How a dialect shows a received PIX (GET /pix/{e2eid}, GET /pix, a paid cob's `pix[]`): the txid it
 * carries there (null for none), and the view (`P`, its type).
 */
export interface ReceivedPixViews<P> {
  txidOf (tx: Transaction): string | null
  view (tx: Transaction): P
}

/**
 * How a devolução is bounded on a dialect: the days after the PIX arrived it may be asked within, and
 * whether natureza RETIRADA is refundable (API Pix: only of a Pix Saque or Troco).
 */
export interface DevolucaoRules {
  deadlineDays: number
  retirada: boolean
}

/** What API Pix's devoluções ask of refunds: the same records and settlement as the gateway's, on API Pix's rules. */
export interface DevolucaoWrites {
  devolucao (account: Account, e2eid: string, id: string, body: { valor: string, natureza?: 'ORIGINAL' | 'RETIRADA', descricao?: string }, scenarios: AppliedScenario[], rules: DevolucaoRules): Transaction
  devolucaoOf (account: Account, e2eid: string, id: string): Transaction
}

/**
 * What API Pix's webhooks ask of the key directory: a key in its canonical form (null when it is no
 * key at all), and whether an account holds it (its document, or a key of the directory held with its
 * document at its institution).
 */
export interface AccountKeys {
  canonical (key: string): string | null
  holds (account: Account, canonicalKey: string): boolean
}

/**
 * What API Pix's webhooks ask of the webhook capability: the rules of a receiver's URL (a refusal, else
 * the URL as kept), and a callback delivered through the same machinery and log as the gateway's events.
 */
export interface Callbacks {
  /** Resolves the URL's host name (no unit may be open across it). */
  checkReceiver (url: string): Promise<URL>
  /**
   * The receiver's mutual TLS as a PSP checks it at registration (`skipFirst`: x-skip-mtls-checking;
   * `off`: the account's switch): how it was checked, or why it is refused, in Efí's words.
   */
  checkMutualTls (url: URL, opts: { skipFirst: boolean, off: boolean }): Promise<{ mtlsCheck: MtlsCheck } | { refused: { nome: string, mensagem: string } }>
  deliver<E extends ApiPixCallback> (event: WebhookEvent<E>, url: string): Delivery
}

/** What the central-bank reads ask of charges: a cob as BACEN's API shows it (`V`, the view's type). */
export interface CobViews<V> {
  cobView (charge: TransactionOf<'COB'>): V
  /** Whether the cob still shows a payload location (API Pix's may be unbound from theirs); always, without it. */
  hasLocation? (charge: TransactionOf<'COB'>): boolean
  /** The account's cobs created within a range of instants, in the order they were made (an index); the account's every transaction is read without it. */
  cobsOf? (accountId: number, created: { from: number, to: number }): Iterable<TransactionOf<'COB'>>
}

/** What the central-bank reads ask of the PIX received (GET /pix): an account's, by the instant each arrived (an index). */
export interface ReceivedPixReads {
  /** The PIX the account received within a range of instants (by `received.at`), in the order they arrived. */
  receivedWithin (accountId: number, arrived: { from: number, to: number }): Iterable<Transaction>
}

/** What MED asks of refunds: to return what is left of a disputed payment. */
export interface MedReturns {
  medReturn (original: Transaction, natureza: 'MED_FRAUDE' | 'MED_OPERACIONAL', descricao: string): Transaction | null
}

/** What MED asks of accounts: the account a record belongs to. */
export interface AccountLookup {
  require (accountId: number): Account
}

/**
 * What POST /__sandbox/transactions/:id/settle and /fail do with a transaction of a given kind. Each
 * capability offers one for the kinds it owns and `createSandbox` registers it with the transactions
 * service, so the control plane steers every pending operation the same way without knowing how it settles.
 */
export interface PendingOperations {
  readonly kinds: readonly TransactionKind[]
  /** Whether the transaction is still waiting for its settlement. */
  isPending (tx: Transaction): boolean
  /** Liquidates it now (a forced success), with its webhooks and ledger effects. */
  settle (tx: Transaction): void
  /** Ends it now with an asynchronous error (docs/gateway.md §6.4), with its webhooks and ledger effects. */
  fail (tx: Transaction, errorCode: AsyncErrorCode): void
}

// ---- what the integration report reads ------------------------------------------------------------

/** The request journal, read (the report grades an account's requests). */
export interface JournalReads {
  list (filter?: JournalFilter, opts?: { since?: Since, limit?: number }): JournalEntry[]
}

/** The webhooks an account's integration received, and a way to send one more (the report's probe). */
export interface WebhookReads {
  readonly log: { query (f: DeliveryFilter, limit: number): Delivery[] }
  readonly registrations: { activeFor (accountId: number, eventType: EventType): WebhookRegistration[] }
  /** Sends an event now to the account's active receivers of its type and to the given URLs of webhooks of API Pix; the deliveries it started. */
  publishTo<E extends string> (event: WebhookEvent<E>, callbackUrls: readonly string[]): Delivery[]
}

// ---- Pix Automático: what recurring charges ask of recurrences (docs/api-pix.md, Pix Automático) ----

/** A recurrence (API Pix's `rec`) as another capability reads it: its status and the receiver's terms. */
export interface RecurrenceView {
  idRec: string
  /** The receiver's account. */
  accountId: number
  status: RecStatus
  terms: DeepReadonly<RecTerms>
  ativacao: RecAtivacao
  /** The payer's PSP and document, once a journey approved the recurrence. */
  pagador?: RecPagador
  /** The payer's own maximum per charge, in cents, when the payer set one on approving a variable value. */
  valorMaximoPagadorCents?: number
  encerramento?: RecEncerramento
}

/** Who pays a recurrence: the payer's PSP (ISPB) and the payer's document, as RecCompleta's `pagador`. */
export type RecPagador = { ispbParticipante: string } & ({ cpf: string } | { cnpj: string })

/**
 * What recurring charges (`cobr`) ask of recurrences: a recurrence of an account (null when the
 * account has none by that idRec), and word of its end (CANCELADA by either side, EXPIRADA, REJEITADA:
 * its authorization no longer covers any debit). A listener gets the ended recurrence's view inside the
 * unit that ends it, after it is stored so, and what it changes (the charges it cancels) commits or
 * rolls back with the end.
 */
export interface Recurrences {
  recurrence (accountId: number, idRec: string): RecurrenceView | null
  onEnded (listener: (ended: RecurrenceView) => void): void
}

/**
 * How the simulated payer of a recurrence answers a debit due on `dueDate` (a charge's attempt):
 * PAGA pays it, REJEITADA_SALDO refuses it for lack of funds, REJEITADA refuses it for another
 * reason, SEM_RESPOSTA leaves it unanswered. Set per receiver account or per debtor document
 * (`PayerBehaviour`, docs/api-pix.md, Pix Automático); PAGA when nothing is set.
 */
export type DebitAnswer = 'PAGA' | 'REJEITADA_SALDO' | 'REJEITADA' | 'SEM_RESPOSTA'

/** What recurring charges ask of the payer's simulation: the answer to a debit of the recurrence `idRec` of account `accountId`. */
export interface SimulatedPayers {
  debitAnswer (accountId: number, idRec: string, dueDate: IsoDate): DebitAnswer
}

/**
 * What recurrences ask of charges for the composite QR of journeys 3 and 4 (docs/api-pix.md, Pix
 * Automático): the account's cob or cobv by txid, which of the two, and its BR Code while it has a
 * location (null once unbound).
 */
export interface RecurrenceCharges {
  chargeCode (account: Account, txid: string): { kind: 'COB' | 'COBV', pixCopiaECola: string | null } | undefined
}

/**
 * A cob or cobv of API Pix paid through a composite code (journeys 3 and 4): the charge, the
 * recurrence's location the code carried (its tag 80), who paid and whether on time (a cobv on or
 * before its due date; a cob always).
 */
export interface CompositePayment {
  accountId: number
  kind: 'COB' | 'COBV'
  txid: string
  recLocation: string
  payer: { ispb: string }
  onTime: boolean
}

/**
 * What charges ask of recurrences when a charge is paid through a composite code: the payer, in the
 * same act, answers the recurrence the code carries. Called inside the payment's unit, after the
 * charge is paid; it never refuses the payment.
 */
export interface RecurrenceActivations {
  chargePaid (payment: CompositePayment): void
}

// ---- Pix Automático: what recurring charges ask of charges (docs/api-pix.md, "Recurring charges") ----

/** A recurring charge's debit the payer's PSP paid: the PIX its receiver gets. */
export interface ScheduledPayment {
  amountCents: number
  /** The payer, and the ISPB of the payer's PSP. */
  payer: { name: string, document: string, ispb: string }
  /** The paid attempt's. */
  endToEndId: string
  /** The recurring charge's; null for a PIX no charge of the receiver's asked for (a split's repasse). */
  txid: string | null
  /** The charge's scenarios, whose delivery faults bend the received PIX's webhook too. */
  scenarios: readonly AppliedScenario[]
}

/**
 * What recurring charges ask of charges: a paid debit received as a PIX of the account (kind PIX_IN),
 * credited, listed and notified as any received PIX is; null, and nothing changed, when the account
 * cannot hold the money.
 */
export interface IncomingPix {
  receive (accountId: number, payment: ScheduledPayment): Transaction | null
}

// ---- Pix Automático: the static code of a contract (docs/api-pix.md, Pix Automático, journey 4) ----

/** The static code of a contract paid: the receiving account, the recurrence's location its tag 80 carried, the payer's PSP. */
export interface ContractCodePayment {
  accountId: number
  recLocation: string
  payer: { ispb: string }
}

/**
 * What charges ask of recurrences for the static code of a contract: which account such a code pays
 * (the one whose location of recurrences its tag 80 carries, when that account holds the code's key),
 * and, once paid, the payer's answer to the recurrence the location serves while it is CRIADA
 * (journey 4). `paid` runs inside the payment's unit and never refuses the payment.
 */
export interface ContractCodes {
  receiverOf (recLocation: string, key: string): number | undefined
  paid (payment: ContractCodePayment): void
}

/** A PIX that an account of this sandbox pays through the static code of a contract, to the account the code names. */
export interface ContractCodeArrival {
  receiverId: number
  amountCents: number
  payer: Payer
  endToEndId: string
  pixCode: string
}

/**
 * What pay-outs ask of charges to pay the static code of a contract of this sandbox (a cash-out by QR
 * code): the account it pays, when it is one (the code as it was read), and the hand-over of the
 * payment, received as a PIX on the code's key.
 */
export interface ContractCodePayments {
  receiverOf (pixCode: string): number | undefined
  arrive (payment: ContractCodeArrival): Arrival
}

/**
 * What pay-outs ask of refunds: a settled pay-out returned by its destination (the scenario
 * PAYOUT_RETURNED), received as the control plane's refund-received is (RefundService.receiveReturn).
 */
export interface PayoutReturns {
  receiveReturn (original: Transaction, body: { amount?: number, reason?: string }, scenarios: AppliedScenario[]): Transaction
}

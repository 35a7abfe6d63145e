import { isNight, saoPauloTime } from '../domain/calendar.js'
import { ASYNC_ERROR_CODES, ASYNC_ERROR_MESSAGES, type AsyncErrorCode } from '../domain/async-errors.js'
import { parseBrCode, type BrCode } from '../domain/brcode.js'
import { gatewayCnpjForm, generateCpf, isValidDocument, type CnpjForm } from '../domain/documents.js'
import { checksDocument, checksDocumentWhenSimulated } from '../domain/provider-groups.js'
import { codeAmount, staticCodeProblem } from '../domain/qrcode-payment.js'
import { endToEndId } from '../domain/ids.js'
import { isValidCashOutKey, normalizeKey, type CashOutKeyType } from '../domain/keys.js'
import * as ledger from '../domain/ledger.js'
import { amountMessage, centsToNumber, centsToString, parseAmount } from '../domain/money.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import { intern } from '../store/intern.js'
import { isKind, PAYOUT_KINDS, type Account, type Counterpart, type DictTransferResponse, type Mutable, type Patch, type PayoutKind, type Transaction, type TransactionData, type TransactionOf, type TransactionStatus } from '../store/state.js'
import { hasScenario, scenarioParam } from '../../scenarios/resolver.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { iso, recordTransition } from './history.js'
import { directoryKeyOf } from './directory.js'
import type { Arrival, ChargePayments, ContractCodePayments, KeyHolders, Lifecycle, PayoutReturns, PendingOperations, Ports } from '../ports.js'
import type { Restored } from '../store/store.js'
import { DueJobs, KeyIndex, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import type { Config } from '../config.js'

/**
 * Cash-out to a key (docs/gateway.md §2.4), cash-out by QR Code (2.5) and the directory transfer (2.3) on the ledger
 * of docs/gateway.md §3.5: creation reserves value + fee, settlement on the scheduler liquidates or releases it and
 * sends the cash_out webhook. The service owns the records of kinds CASH_OUT, CASH_OUT_QRCODE and
 * DICT_TRANSFER, the running daily totals behind the daily limit, and the key directory.
 */

export { ASYNC_ERROR_CODES, ASYNC_ERROR_MESSAGES, type AsyncErrorCode }

/**
 * Group A providers reject a document mismatch themselves and the gateway passes their text on
 * (docs/gateway.md §2.4, 6.4): not TAX_ID_MISMATCH, so an integrator cannot rely on that code for group A.
 */
export const GROUP_A_MISMATCH = {
  code: 'PROVIDER_REJECTED',
  message: 'Recusado pelo provedor: documento do favorecido diverge do titular da chave PIX',
} as const

/** One externalId namespace for both standard pay-out endpoints (docs/gateway.md §4.1: unique per account for 5 and 6). */
export const PAYOUT_SCOPE = 'payout'

/** ORDER_REJECTED of a QR cash-out whose charge of this sandbox was paid, expired or removed before settlement. */
const NO_LONGER_PAYABLE = 'QR Code não está mais disponível para pagamento'

type Payout = TransactionOf<PayoutKind>

/** The charge of this sandbox a QR cash-out pays, when it pays one. */
const chargeIdOf = (tx: Payout): string | undefined => tx.kind === 'CASH_OUT_QRCODE' ? tx.data.chargeId : undefined

/** The account of this sandbox a QR cash-out pays through the static code of a contract, when it pays one. */
const receiverIdOf = (tx: Payout): number | undefined => tx.kind === 'CASH_OUT_QRCODE' ? tx.data.receiverId : undefined

/** The document the payer sent for the key's holder (a directory transfer sends none). */
const sentDocumentOf = (tx: Payout): string | undefined => tx.kind === 'DICT_TRANSFER' ? undefined : tx.data.document

/** What a new pay-out record is made of, besides its status. */
interface RecordFieldsOf<K extends PayoutKind> {
  kind: K
  amountCents: number
  externalId?: string
  description?: string
  pixKey?: string
  idempotencyKey?: string
  counterpart?: Counterpart
  scenarios: AppliedScenario[]
  data: TransactionData[K]
  errorCode?: string | null
  errorMessage?: string | null
  /** Given at creation where the API answers it then (a PSP's pay-out: Efí's e2eId in its 201). */
  endToEndId?: string
}

export interface CashOutInput {
  value: number
  externalId: string
  description?: string
  details: { key: string, keyType: CashOutKeyType, name: string, document: string }
}

export interface QrCashOutInput {
  /** Absent: the code's own amount (its tag 54, or its charge's). */
  value?: number
  qrCode: string
  externalId: string
  description?: string
  name?: string
  document?: string
  /** The account's own key it is sent from (a PSP's pay-out API): announced to that key's webhook, with its endToEndId from creation. */
  senderKey?: string
}

/**
 * A PSP's pay-out (Efí's PUT /v3/gn/pix/:idEnvio, docs/efi.md): from one of the account's keys, to a
 * key the directory lists (its holder) or to account data, its endToEndId given at creation.
 */
export interface TransferInput {
  /** The client's id of it (Efí's idEnvio): one namespace with the pay-outs' externalIds. */
  externalId: string
  amountCents: number
  description?: string
  senderKey: string
  to: { key: string, keyType: CashOutKeyType, holder: Counterpart } | { account: Counterpart, accountType: string }
}

export interface DictTransferInput {
  idempotencyKey: string
  pixKey: string
  creditorDocument?: string
  priority?: 'HIGH' | 'NORM'
  description?: string
  expiration?: number
  payment: { currency: string, amount: number }
  ispbDeny?: string[]
}

export type { DictTransferResponse }

/** A creation that ended in a recorded transaction plus an error answer (422 rejections, the 500 scenario). */
export interface PayoutOutcome {
  tx: TransactionOf<'CASH_OUT_QRCODE'>
  error?: Refusal
}

type Settlement =
  | { ok: true, counterpart: Counterpart, chargeId?: string, receiverId?: number }
  | { ok: false, code: string, message: string, counterpart?: Counterpart }

export { isNight, saoPauloTime }

export type PayoutDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng' | 'fixtures' | 'events'> & {
  config: Pick<Config, 'settlementDelayMs' | 'alphanumericCnpj'>
  charges: ChargePayments
  directory: KeyHolders
  /** The static codes of a contract of this sandbox's accounts (Pix Automático, journey 4), paid to their account. */
  contractCodes?: ContractCodePayments
  /** Where a settled pay-out returned by its destination arrives (PAYOUT_RETURNED). */
  returns?: PayoutReturns
}

export class PayoutService implements Lifecycle {
  /** Sum of the day's non-failed pay-outs per account, keyed `accountId|YYYY-MM-DD` (São Paulo): O(1) per request. */
  private readonly dailyCents = new Map<string, number>()
  /** Charges of this sandbox being paid by a pending QR cash-out: a second payer gets QRCODE_ALREADY_PAID. */
  private readonly chargesInFlight: KeyIndex<'transactions'>
  /** A pending pay-out's one settlement job, at its `dueAt` (a later schedule replaces it). */
  private readonly settlements: DueJobs<'transactions'>
  /** The pay-outs a PSP's own API sent from a key of the account (Efí's), by creation: that API's list of what was sent reads them. */
  private readonly sentFromKeys: RecordLists<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: PayoutDeps) {
    this.chargesInFlight = new KeyIndex(deps.store, 'transactions', {
      keys: tx => isKind(tx, PAYOUT_KINDS) ? chargeIdOf(tx) : undefined,
      holds: tx => tx.status === 'PENDING',
    })
    this.settlements = new DueJobs(deps.store, deps.scheduler, 'transactions', {
      purpose: 'payout-settlement',
      dueAt: tx => tx.status === 'PENDING' && tx.dueAt !== undefined && isKind(tx, PAYOUT_KINDS) ? Date.parse(tx.dueAt) : undefined,
      run: tx => this.onDue(tx.id),
    })
    this.sentFromKeys = new RecordLists(deps.store, 'transactions', tx => isKind(tx, PAYOUT_KINDS) && tx.data.senderKey !== undefined ? [String(tx.accountId)] : [], tx => tx.createdAt)
    this.derived = [this.chargesInFlight, this.settlements, this.sentFromKeys]
  }

  /** The account's pay-outs sent from one of its keys (a PSP's own API) created within the window, oldest first. */
  sentFromKeysOf (accountId: number, created: InstantRange): Payout[] {
    return this.sentFromKeys.within(String(accountId), created) as Payout[]
  }

  /** POST /__sandbox/transactions/:id/settle and /fail on a pay-out. */
  readonly pendingOperations: PendingOperations = {
    kinds: PAYOUT_KINDS,
    isPending: tx => tx.status === 'PENDING',
    settle: tx => this.settle(tx, { forced: true }),
    fail: (tx, code) => this.fail(tx, code, ASYNC_ERROR_MESSAGES[code]),
  }

  /** How the gateway's families take a CNPJ (docs/assumptions.md): digits only unless `--alphanumeric-cnpj enabled`. */
  private get cnpjForm (): CnpjForm {
    return gatewayCnpjForm(this.deps.config.alphanumericCnpj)
  }

  // ---- POST /api/pix/cash-out ---------------------------------------------------------------------------

  createCashOut (account: Account, input: CashOutInput, scenarios: AppliedScenario[]): TransactionOf<'CASH_OUT'> {
    const cents = this.amountOf(input.value)
    const { key, keyType, document, name } = input.details
    if (!isValidCashOutKey(keyType, key, this.cnpjForm) || hasScenario(scenarios, 'INVALID_KEY')) {
      throw new Refusal('PIX_INVALID_PIX_KEY', `Chave PIX "${key}" não corresponde ao tipo ${keyType}`)
    }
    if (!isValidDocument(document, this.cnpjForm)) throw invalidRequest(['details.document deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos) válido'])
    const existing = this.deps.store.transactionByExternalId(account.id, PAYOUT_SCOPE, input.externalId)
    if (existing) {
      throw new Refusal('PIX_DUPLICATE_EXTERNAL_ID', `O externalId "${input.externalId}" já foi usado nesta conta`, {
        details: { externalId: input.externalId, existingTransactionId: existing.seq },
      })
    }
    this.checkLimits(account, cents, scenarios)
    this.checkBalance(account, cents, scenarios)
    return this.deps.store.transact(() => this.open(account, {
      kind: 'CASH_OUT',
      amountCents: cents,
      externalId: input.externalId,
      description: input.description,
      pixKey: key,
      scenarios,
      data: { keyType: intern(keyType), name: intern(name), document: intern(document), directoryKey: intern(normalizeKey(keyType, key)) },
    }))
  }

  // ---- a PSP's pay-out to a key or to account data ------------------------------------------------------

  createTransfer (account: Account, input: TransferInput, scenarios: AppliedScenario[]): TransactionOf<'CASH_OUT'> {
    const existing = this.deps.store.transactionByExternalId(account.id, PAYOUT_SCOPE, input.externalId)
    if (existing) {
      throw new Refusal('PIX_DUPLICATE_EXTERNAL_ID', `O id de envio "${input.externalId}" já foi utilizado em outro pagamento`, {
        details: { externalId: input.externalId, existingTransactionId: existing.seq },
      })
    }
    if ('key' in input.to && hasScenario(scenarios, 'INVALID_KEY')) throw new Refusal('PIX_INVALID_PIX_KEY', `Chave PIX "${input.to.key}" inválida`)
    this.checkLimits(account, input.amountCents, scenarios)
    this.checkBalance(account, input.amountCents, scenarios)
    const to = input.to
    const counterpart = 'key' in to ? to.holder : to.account
    const now = this.deps.clock.now()
    return this.deps.store.transact(() => this.open(account, {
      kind: 'CASH_OUT',
      amountCents: input.amountCents,
      externalId: input.externalId,
      description: input.description,
      ...('key' in to ? { pixKey: to.key } : {}),
      counterpart,
      scenarios,
      endToEndId: endToEndId(account.ispb, now, this.deps.rng),
      data: 'key' in to
        ? { keyType: intern(to.keyType), name: intern(counterpart.name), document: intern(counterpart.document), directoryKey: intern(to.key), senderKey: intern(input.senderKey) }
        : { keyType: 'ACCOUNT', name: intern(counterpart.name), document: intern(counterpart.document), accountType: intern(to.accountType), senderKey: intern(input.senderKey) },
    }))
  }

  // ---- POST /api/pix/cash-out-qrcode ----------------------------------------------------------------------

  createQrCashOut (account: Account, input: QrCashOutInput, scenarios: AppliedScenario[]): PayoutOutcome {
    const asked = input.value === undefined ? undefined : this.amountOf(input.value)
    const parsed = parseBrCode(input.qrCode)
    if (!parsed.ok) throw invalidRequest([`qrCode inválido: ${parsed.reason}`])
    const keyProblem = staticCodeProblem(parsed.value)
    if (keyProblem !== null) throw invalidRequest([`qrCode inválido: ${keyProblem}`])
    if (input.document !== undefined && !isValidDocument(input.document, this.cnpjForm)) throw invalidRequest(['document deve ser um CPF (11 dígitos) ou CNPJ (14 dígitos) válido'])
    const code = parsed.value
    // A static code's amount is its tag 54; a dynamic code's is its charge's, checked below.
    const stated = codeAmount(code)
    if (stated !== undefined && asked !== undefined && stated !== asked) {
      throw invalidRequest([`value deve ser igual ao valor do QR Code (${centsToString(stated)})`])
    }
    const existing = this.deps.store.transactionByExternalId(account.id, PAYOUT_SCOPE, input.externalId)
    if (existing) {
      throw new Refusal('QRCODE_DUPLICATE_EXTERNAL_ID', `O externalId "${input.externalId}" já foi usado em outra transação`, {
        details: { externalId: input.externalId, existingTransactionId: existing.seq },
      })
    }
    const base: RecordFieldsOf<'CASH_OUT_QRCODE'> = {
      kind: 'CASH_OUT_QRCODE',
      amountCents: asked ?? stated ?? 0,
      externalId: input.externalId,
      description: input.description,
      pixKey: code.key ?? '',
      scenarios,
      data: { qrCode: input.qrCode, brCode: code, name: input.name ?? code.merchantName, document: input.document },
    }
    if (input.senderKey !== undefined) {
      base.data.senderKey = input.senderKey
      base.endToEndId = endToEndId(account.ispb, this.deps.clock.now(), this.deps.rng)
    }
    // One unit, and no await between the externalId check above and the insert: a concurrent duplicate
    // cannot slip in between.
    return this.deps.store.transact(() => this.qrCashOut(account, base, code, asked, scenarios))
  }

  private qrCashOut (account: Account, base: RecordFieldsOf<'CASH_OUT_QRCODE'>, code: BrCode, asked: number | undefined, scenarios: AppliedScenario[]): PayoutOutcome {
    if (hasScenario(scenarios, 'QRCODE_ALREADY_PAID')) return this.rejectQrCode(account, base, 'QRCODE_ALREADY_PAID')
    if (hasScenario(scenarios, 'QRCODE_NOT_AVAILABLE')) return this.rejectQrCode(account, base, 'QRCODE_NOT_AVAILABLE')
    if (hasScenario(scenarios, 'PROVIDER_REJECTED')) return this.rejectQrCode(account, base, null)

    // The static code of a contract of an account of this sandbox pays that account (as often as the payer likes).
    const receiverId = code.key !== undefined ? this.deps.contractCodes?.receiverOf(base.data.qrCode) : undefined
    const lookup = receiverId === undefined ? this.deps.charges.chargeForCode(code) : undefined
    if (receiverId !== undefined) {
      base.data.receiverId = receiverId
    } else if (lookup) {
      if (lookup.status === 'paid' || this.chargesInFlight.has(lookup.charge.id)) return this.rejectQrCode(account, base, 'QRCODE_ALREADY_PAID')
      if (lookup.status === 'unavailable') return this.rejectQrCode(account, base, 'QRCODE_NOT_AVAILABLE')
      if (lookup.amountCents !== null && asked !== undefined && lookup.amountCents !== asked) {
        throw invalidRequest([`value deve ser igual ao valor da cobrança (${centsToString(lookup.amountCents)})`])
      }
      if (asked === undefined && lookup.amountCents !== null) base.amountCents = lookup.amountCents
      base.data.chargeId = lookup.charge.id
      base.pixKey = lookup.charge.pixKey ?? base.pixKey
    } else if (code.location !== undefined) {
      // Only the issuer serves a dynamic code's payload: a location this sandbox did not issue cannot
      // be fetched, so the provider refuses it as it would a code that no longer exists.
      return this.rejectQrCode(account, base, 'QRCODE_NOT_AVAILABLE', `Não foi possível obter o payload do QR Code dinâmico em ${code.location}`)
    } else if (code.key !== undefined) {
      const directory = directoryKeyOf(code.key)
      if (directory) base.data.directoryKey = directory.key
    }
    const cents = asked ?? base.amountCents
    if (cents <= 0) throw invalidRequest(['O QR Code não informa o valor: informe o valor a pagar'])
    this.checkLimits(account, cents, scenarios)
    this.checkBalance(account, cents, scenarios)
    const tx = this.open(account, base)
    if (base.data.chargeId !== undefined) this.chargesInFlight.follow(tx)
    if (hasScenario(scenarios, 'INTERNAL_ERROR')) {
      // The payment exists and settles as usual; only the answer is lost (docs/gateway.md §7.3: query, do not assume failure).
      return { tx, error: new Refusal('INTERNAL_ERROR', 'Erro interno ao processar o pagamento; consulte a transação antes de tentar novamente') }
    }
    return { tx }
  }

  /**
   * A provider's 422 (docs/gateway.md §7.3): the attempt is recorded as a final ERROR, consuming the externalId,
   * so a client that queries the transaction finds the outcome. Nothing is reserved or sent.
   */
  private rejectQrCode (account: Account, base: RecordFieldsOf<'CASH_OUT_QRCODE'>, code: 'QRCODE_ALREADY_PAID' | 'QRCODE_NOT_AVAILABLE' | null, reason?: string): PayoutOutcome {
    const message = reason ?? (code === 'QRCODE_ALREADY_PAID'
      ? 'QR Code já foi pago'
      : code === 'QRCODE_NOT_AVAILABLE' ? 'QR Code não está disponível para pagamento (expirado ou removido)' : 'Pagamento recusado pelo provedor')
    const tx = this.record(account, 'ERROR', { ...base, errorCode: code ?? 'PROVIDER_REJECTED', errorMessage: message })
    return { tx, error: new Refusal(code ?? 'PROVIDER_REJECTED', message) }
  }

  // ---- POST /dict/pix -------------------------------------------------------------------------------------

  /** The transfer an idempotency key already created for the account, if any. */
  transferFor (account: Account, idempotencyKey: string): TransactionOf<'DICT_TRANSFER'> | undefined {
    const tx = this.deps.store.transactionByIdempotencyKey(account.id, idempotencyKey)
    return tx && isKind(tx, ['DICT_TRANSFER'] as const) ? tx : undefined
  }

  createDictTransfer (account: Account, input: DictTransferInput, scenarios: AppliedScenario[]): TransactionOf<'DICT_TRANSFER'> {
    const directoryKey = directoryKeyOf(input.pixKey)
    // docs/gateway.md §2.3: a CNPJ key is 14 digits; the 2026 alphanumeric CNPJ is accepted only by the standard family.
    if (!directoryKey || (directoryKey.keyType === 'CNPJ' && !/^\d{14}$/.test(directoryKey.key))) throw invalidRequest('Chave PIX inválida: use CPF, CNPJ, e-mail, telefone (+55...) ou EVP')
    const amount = parseAmount(input.payment.amount)
    if (!amount.ok) throw invalidRequest(`Valor inválido: ${amountMessage('payment.amount', amount.reason)}`)
    if (input.creditorDocument !== undefined && !isValidDocument(input.creditorDocument, this.cnpjForm)) throw invalidRequest('creditorDocument deve ser um CPF ou CNPJ válido')
    if (input.priority === 'HIGH' && input.creditorDocument === undefined) throw invalidRequest('creditorDocument é obrigatório quando priority é HIGH')

    const holder = this.deps.directory.listed(directoryKey.key)
    if (!holder || hasScenario(scenarios, 'KEY_NOT_FOUND')) throw new Refusal('KEY_NOT_FOUND', 'Chave PIX não encontrada no diretório')
    const { ispb } = holder.counterpart
    if (input.ispbDeny?.includes(ispb)) throw new Refusal('ISPB_DENIED', `A instituição da chave (${ispb}) está em ispbDeny`)
    this.checkBalance(account, amount.cents, scenarios)

    const now = this.deps.clock.now()
    const priority = input.priority ?? 'NORM'
    const expiration = input.expiration ?? 600
    return this.deps.store.transact(() => {
      const tx = this.open(account, {
        kind: 'DICT_TRANSFER',
        amountCents: amount.cents,
        description: input.description,
        pixKey: directoryKey.key,
        idempotencyKey: input.idempotencyKey,
        counterpart: holder.counterpart,
        scenarios,
        data: {
          directoryKey: directoryKey.key,
          priority,
          expiration,
          expiresAt: new Date(now + expiration * 1000).toISOString(),
          currency: input.payment.currency,
          ...(input.creditorDocument !== undefined && { creditorDocument: input.creditorDocument }),
          ...(input.ispbDeny !== undefined && { ispbDeny: input.ispbDeny }),
        },
      })
      const response: DictTransferResponse = {
        // The provisional identifier is the transaction's UUID, what /__sandbox/transactions/:id accepts;
        // the real 32-character endToEndId exists only once settled and arrives in the TRANSFER webhook.
        endToEndId: tx.id,
        eventDate: tx.createdAt,
        id: tx.seq,
        payment: { amount: centsToNumber(tx.amountCents) },
        type: 'PENDING',
      }
      this.deps.store.patch('transactions', tx.id, d => { d.data = { ...d.data, response } })
      return tx
    })
  }

  // ---- shared creation rules --------------------------------------------------------------------------

  private amountOf (value: number): number {
    const parsed = parseAmount(value)
    if (!parsed.ok) throw new Refusal('PIX_INVALID_AMOUNT', `Valor inválido: ${amountMessage('value', parsed.reason)}`)
    return parsed.cents
  }

  /** docs/gateway.md §7.2 limits, per account: per transaction, at night (20:00-06:00 São Paulo), per day. */
  private checkLimits (account: Account, cents: number, scenarios: AppliedScenario[]): void {
    const now = this.deps.clock.now()
    const limits = account.limits
    if (cents > limits.perTransactionCents || hasScenario(scenarios, 'TRANSACTION_LIMIT')) {
      throw new Refusal('PIX_TRANSACTION_LIMIT_EXCEEDED', `Valor acima do limite por transação (${centsToString(limits.perTransactionCents)})`)
    }
    if ((isNight(now) && cents > limits.nightlyCents) || hasScenario(scenarios, 'NIGHT_LIMIT')) {
      throw new Refusal('PIX_NIGHT_LIMIT_EXCEEDED', `Valor acima do limite noturno (${centsToString(limits.nightlyCents)}) entre 20:00 e 06:00`)
    }
    const spent = this.dailyCents.get(this.dayKey(account.id, now)) ?? 0
    if (spent + cents > limits.dailyCents || hasScenario(scenarios, 'DAILY_LIMIT')) {
      throw new Refusal('PIX_DAILY_LIMIT_EXCEEDED', `Limite diário excedido: já usado ${centsToString(spent)} de ${centsToString(limits.dailyCents)}`)
    }
  }

  private checkBalance (account: Account, cents: number, scenarios: AppliedScenario[]): void {
    if (account.balance.availableCents >= cents + account.feeCents && !hasScenario(scenarios, 'INSUFFICIENT_FUNDS')) return
    const needed = centsToString(cents + account.feeCents)
    // Under the scenario the balance may well suffice: say what is simulated rather than quote it.
    const message = hasScenario(scenarios, 'INSUFFICIENT_FUNDS')
      ? `Saldo insuficiente (simulado pelo cenário INSUFFICIENT_FUNDS): necessário ${needed} (valor + tarifa)`
      : `Saldo insuficiente: disponível ${centsToString(account.balance.availableCents)}, necessário ${needed} (valor + tarifa)`
    throw new Refusal('PIX_INSUFFICIENT_BALANCE', message)
  }

  private dayKey (accountId: number, ms: number): string {
    return `${accountId}|${saoPauloTime(ms).day}`
  }

  private addDaily (tx: Payout, sign: 1 | -1): void {
    const day = tx.data.limitDay
    if (!day) return
    const key = `${tx.accountId}|${day}`
    const next = (this.dailyCents.get(key) ?? 0) + sign * tx.amountCents
    if (next > 0) this.dailyCents.set(key, next)
    else this.dailyCents.delete(key)
  }

  /** Builds and stores a record without touching the ledger; `extra` completes it before it is stored. */
  private record<K extends PayoutKind> (account: Account, status: TransactionStatus<K>, f: RecordFieldsOf<K>, extra?: (tx: Mutable<Payout>) => void): TransactionOf<K> {
    const at = new Date(this.deps.clock.now()).toISOString()
    // Built field by field, not with conditional spreads: this runs once per pay-out, and spreading
    // temporary objects was 5% of a cash-out's CPU time. `kind`, `data` and `status` are one kind's,
    // which the compiler cannot follow through separate fields: hence the one assertion.
    const tx = {
      id: this.deps.rng.uuid(),
      seq: this.deps.store.nextSeq('transaction'),
      accountId: account.id,
      kind: f.kind,
      direction: 'OUT',
      status,
      amountCents: f.amountCents,
      feeCents: account.feeCents,
      errorCode: f.errorCode ?? null,
      errorMessage: f.errorMessage ?? null,
      scenarios: f.scenarios,
      data: f.data,
      createdAt: at,
      updatedAt: at,
      history: [f.errorMessage ? { status, at, reason: f.errorMessage } : { status, at }],
    } as TransactionOf<K> & Mutable<Payout>
    if (f.externalId !== undefined) tx.externalId = f.externalId
    if (f.description !== undefined) tx.description = intern(f.description)
    if (f.pixKey !== undefined) tx.pixKey = intern(f.pixKey)
    if (f.idempotencyKey !== undefined) tx.idempotencyKey = f.idempotencyKey
    if (f.counterpart !== undefined) tx.counterpart = f.counterpart
    if (f.endToEndId !== undefined) tx.endToEndId = f.endToEndId
    extra?.(tx)
    const added = this.deps.store.addTransaction(tx, f.externalId !== undefined ? PAYOUT_SCOPE : undefined)
    this.sentFromKeys.add(added)
    return added
  }

  /**
   * A pending pay-out: value + fee move to blocked, the amount counts towards the day, and settlement is
   * scheduled. Callers have checked the balance with no await since, so the reservation cannot fail.
   */
  private open<K extends PayoutKind> (account: Account, f: RecordFieldsOf<K>): TransactionOf<K> {
    const now = this.deps.clock.now()
    const reserved = this.deps.store.ledger(account.id, a => ledger.reserve(a, f.amountCents + account.feeCents))
    if (!reserved) throw new Error('reservation refused after the balance check')
    const tx = this.record(account, 'PENDING', f, draft => {
      draft.data.limitDay = saoPauloTime(now).day
      draft.dueAt = new Date(this.dueAtOf(draft, now)).toISOString()
    })
    this.addDaily(tx, 1)
    this.settlements.follow(tx)
    return tx
  }

  /**
   * When settlement runs: the configured delay, or SETTLEMENT_DELAY;ms=N; a HIGH directory transfer at
   * once; a NORM one no later than its expiration, when a transfer still queued is cancelled.
   */
  private dueAtOf (tx: Mutable<Payout>, now: number): number {
    const delayed = hasScenario(tx.scenarios, 'SETTLEMENT_DELAY')
    const delay = delayed ? scenarioParam(tx.scenarios, 'SETTLEMENT_DELAY', 'ms', 0) : this.deps.config.settlementDelayMs
    if (tx.kind !== 'DICT_TRANSFER') return now + delay
    if (tx.data.priority === 'HIGH') return now + (delayed ? delay : 0)
    tx.data.settleAt = new Date(now + delay).toISOString()
    return Math.min(now + delay, Date.parse(tx.data.expiresAt))
  }

  private onDue (id: string): void {
    const tx = this.deps.store.transaction(id)
    // Gone (reset) or already settled or failed through the control plane: nothing left to do.
    if (!tx || tx.status !== 'PENDING' || !isKind(tx, PAYOUT_KINDS)) return
    if (tx.kind === 'DICT_TRANSFER' && tx.data.priority !== 'HIGH' && typeof tx.data.settleAt === 'string' &&
        Date.parse(tx.data.settleAt) > Date.parse(tx.data.expiresAt)) {
      this.fail(tx, 'PAYMENT_EXPIRED', `Transferência cancelada: permaneceu na fila além de ${String(tx.data.expiration)} segundos`)
    } else {
      this.settle(tx, { forced: false })
    }
  }

  // ---- settlement -------------------------------------------------------------------------------------

  /**
   * Runs the settlement of a pending pay-out. Unforced, it applies the scenarios kept on the record, the
   * destination account's status in the directory and the provider group's document check (docs/gateway.md §2.4);
   * forced (control plane), only what cannot be bypassed: a sandbox charge that can no longer be paid.
   */
  settle (tx: Transaction, opts: { forced: boolean }): void {
    const account = this.deps.store.account(tx.accountId)
    if (!account || tx.status !== 'PENDING' || !isKind(tx, PAYOUT_KINDS)) return
    const outcome = this.settlementOf(tx, account, opts.forced)
    if (!outcome.ok) {
      this.fail(tx, outcome.code, outcome.message, outcome.counterpart)
      return
    }
    this.deps.store.transact(() => {
      const now = this.deps.clock.now()
      // A pay-out answered with its endToEndId keeps it; the others get theirs as they settle.
      const e2e = tx.endToEndId ?? endToEndId(account.ispb, now, this.deps.rng)
      if (tx.endToEndId === undefined) this.deps.store.patch('transactions', tx.id, d => { d.endToEndId = e2e })
      const arrival = this.handOver(tx, outcome, account, e2e)
      if (arrival !== undefined && arrival !== 'taken') {
        this.fail(tx, 'ORDER_REJECTED', arrival === 'unavailable' ? NO_LONGER_PAYABLE : ASYNC_ERROR_MESSAGES.ORDER_REJECTED)
        return
      }
      this.deps.store.ledger(account.id, a => ledger.settleOutgoing(a, tx.amountCents, tx.feeCents))
      this.deps.store.patch('transactions', tx.id, d => {
        d.counterpart = outcome.counterpart
        this.transition(d, tx.kind === 'DICT_TRANSFER' ? 'COMPLETED' : 'CONFIRMED', now)
        d.errorCode = null
        d.errorMessage = null
      })
      this.release(tx)
      this.notify(tx)
      if (hasScenario(tx.scenarios, 'PAYOUT_RETURNED')) this.returnAll(tx)
    })
  }

  /**
   * PAYOUT_RETURNED: the settled pay-out comes back whole, in `parts` equal devoluções received (the last
   * takes the cents left over), in the unit that settled it.
   */
  private returnAll (tx: Payout): void {
    const settled = this.deps.store.transaction(tx.id)
    if (settled === undefined || this.deps.returns === undefined) return
    const parts = scenarioParam(tx.scenarios, 'PAYOUT_RETURNED', 'parts', 1)
    const each = Math.floor(tx.amountCents / parts)
    const scenarios = (tx.scenarios ?? []).filter(s => s.name !== 'PAYOUT_RETURNED')
    for (let i = 0; i < parts; i++) {
      const cents = i === parts - 1 ? tx.amountCents - each * (parts - 1) : each
      if (cents <= 0) continue
      try {
        this.deps.returns.receiveReturn(settled, { amount: centsToNumber(cents), reason: 'Devolução pelo recebedor (cenário PAYOUT_RETURNED)' }, scenarios)
      } catch (err) {
        // An account that cannot hold more (its balance cap) takes no more of it; the pay-out stays settled.
        if (err instanceof Refusal) return
        throw err
      }
    }
  }

  /**
   * A payment to an account of this sandbox (a charge's, or the one a static code of a contract pays) is
   * handed over, and the destination's answer decides; undefined for any other destination.
   */
  private handOver (tx: Payout, to: { chargeId?: string, receiverId?: number }, account: Account, endToEndId: string): Arrival | undefined {
    const payer = { name: account.name, document: account.document, ispb: account.ispb, bankName: account.bankName, accountId: account.id }
    const pixCode = tx.kind === 'CASH_OUT_QRCODE' ? tx.data.qrCode : undefined
    if (to.chargeId !== undefined) return this.deps.charges.arrive({ chargeId: to.chargeId, amountCents: tx.amountCents, payer, endToEndId, pixCode })
    if (to.receiverId === undefined || pixCode === undefined) return undefined
    return this.deps.contractCodes?.arrive({ receiverId: to.receiverId, amountCents: tx.amountCents, payer, endToEndId, pixCode }) ?? 'unavailable'
  }

  private settlementOf (tx: Payout, account: Account, forced: boolean): Settlement {
    if (!forced) {
      const scenarioCode = ASYNC_ERROR_CODES.find(code => hasScenario(tx.scenarios, code))
      if (scenarioCode) return { ok: false, code: scenarioCode, message: ASYNC_ERROR_MESSAGES[scenarioCode] }
      if (hasScenario(tx.scenarios, 'DOCUMENT_MISMATCH')) {
        const simulated = this.simulatedMismatch(tx, account)
        // Paid to the key owner: a charge of this sandbox is still paid, to its receiver, below.
        if (!simulated.ok || (chargeIdOf(tx) === undefined && receiverIdOf(tx) === undefined)) return simulated
      }
    }
    const chargeId = chargeIdOf(tx)
    const receiverId = receiverIdOf(tx)
    if (chargeId !== undefined || receiverId !== undefined) {
      // Paid to an account of this sandbox: the charge's receiver, or the one a static code of a contract
      // pays; whether it can still take it is its own answer when the payment arrives (settle).
      const receiverAccountId = chargeId === undefined ? receiverId : this.deps.store.transaction(chargeId)?.accountId
      const receiver = receiverAccountId === undefined ? undefined : this.deps.store.account(receiverAccountId)
      const counterpart: Counterpart = receiver
        ? { name: receiver.name, document: receiver.document, ispb: receiver.ispb, bankName: receiver.bankName, bankCode: this.deps.fixtures.institution.bankCode, accountBranch: '0001', accountNumber: String(receiver.id), ...(tx.pixKey ? { key: tx.pixKey } : {}) }
        : this.deps.directory.invented({ name: tx.kind === 'CASH_OUT_QRCODE' ? tx.data.name : undefined, document: sentDocumentOf(tx) }, account.ispb)
      return { ok: true, counterpart, ...(chargeId !== undefined ? { chargeId } : { receiverId }) }
    }
    const key = tx.data.directoryKey
    const listed = key !== undefined ? this.deps.directory.listed(key) : undefined
    const counterpart = listed ? listed.counterpart : (tx.counterpart ?? this.holderFor(tx, account))
    if (forced) return { ok: true, counterpart }
    if (listed?.accountStatus === 'BLOCKED') return { ok: false, code: 'BLOCKED_ACCOUNT', message: ASYNC_ERROR_MESSAGES.BLOCKED_ACCOUNT, counterpart }
    if (listed?.accountStatus === 'CLOSED') return { ok: false, code: 'ACCOUNT_CLOSED', message: ASYNC_ERROR_MESSAGES.ACCOUNT_CLOSED, counterpart }
    const sent = sentDocumentOf(tx)
    if (listed && sent !== undefined && counterpart.document !== sent && checksDocument(account.providerGroup, account.documentCheck)) {
      return { ...this.mismatch(account), counterpart }
    }
    return { ok: true, counterpart }
  }

  /**
   * DOCUMENT_MISMATCH: the key's holder has another document than the one sent, and the account's
   * provider group decides as for a real mismatch (docs/gateway.md §2.4): A and B (and D) refuse, C and E
   * pay the key owner, whose document the webhook's counterpart shows.
   */
  private simulatedMismatch (tx: Payout, account: Account): Settlement {
    const sent = sentDocumentOf(tx)
    let other = generateCpf(this.deps.rng)
    while (other === sent) other = generateCpf(this.deps.rng)
    const key = tx.data.directoryKey
    const listed = key !== undefined ? this.deps.directory.listed(key) : undefined
    const name = tx.kind === 'CASH_OUT_QRCODE' ? tx.data.name : undefined
    const counterpart = listed
      ? { ...listed.counterpart, document: other }
      : this.deps.directory.invented({ name, document: other, key: tx.pixKey || undefined }, account.ispb)
    return checksDocumentWhenSimulated(account.providerGroup) ? { ...this.mismatch(account), counterpart } : { ok: true, counterpart }
  }

  private mismatch (account: Account): Settlement {
    return account.providerGroup === 'A'
      ? { ok: false, ...GROUP_A_MISMATCH }
      : { ok: false, code: 'TAX_ID_MISMATCH', message: ASYNC_ERROR_MESSAGES.TAX_ID_MISMATCH }
  }

  /** The holder of a key the directory does not list: a key belongs to one account, so paying it again reaches the same one. */
  private holderFor (tx: Payout, account: Account): Counterpart {
    const name = tx.kind === 'CASH_OUT_QRCODE' ? tx.data.name : undefined
    return this.deps.directory.invented({ name, document: sentDocumentOf(tx), key: tx.pixKey || undefined }, account.ispb)
  }

  /**
   * Ends a pending pay-out in ERROR: the reservation returns to available and the failure is notified,
   * all in one unit (an identifier that cannot be built, say, leaves the reservation where it was).
   */
  fail (tx: Transaction, code: string, message: string, counterpart?: Counterpart): void {
    const account = this.deps.store.account(tx.accountId)
    if (!account || tx.status !== 'PENDING' || !isKind(tx, PAYOUT_KINDS)) return
    this.deps.store.transact(() => {
      const now = this.deps.clock.now()
      const holder = counterpart ?? tx.counterpart ?? this.holderFor(tx, account)
      const e2e = !tx.endToEndId && tx.kind !== 'DICT_TRANSFER' ? endToEndId(account.ispb, now, this.deps.rng) : undefined
      this.deps.store.ledger(account.id, a => ledger.release(a, tx.amountCents + tx.feeCents))
      this.deps.store.patch('transactions', tx.id, d => {
        d.counterpart = holder
        if (e2e !== undefined) d.endToEndId = e2e
        d.errorCode = code
        d.errorMessage = message
        this.transition(d, 'ERROR', now, message)
      })
      this.addDaily(tx, -1)
      this.release(tx)
      this.notify(tx)
    })
  }

  private transition<T extends Patch<Transaction>> (tx: T, status: T['status'], now: number, reason?: string): void {
    // Not `delete`: removing a property that is not the last one added turns the record into a dictionary-mode
    // object, about 1.4 KB more heap per settled pay-out. JSON drops an undefined field all the same.
    tx.dueAt = undefined
    // An empty reason is left out of the history, as it always was here.
    recordTransition(tx, status, iso(now), reason || undefined)
  }

  /** A pay-out no longer pending: its settlement and the charge it paid are let go. */
  private release (tx: Payout): void {
    this.settlements.follow(tx)
    this.chargesInFlight.follow(tx)
  }

  /** A pay-out ended (settled or failed): the dialects notify it. */
  private notify (tx: Payout): void {
    this.deps.events.emit({ kind: 'payout-changed', accountId: tx.accountId, transactionId: tx.id, scenarios: tx.scenarios })
  }

  // ---- state kept in memory -----------------------------------------------------------------------------

  // The day's totals are running sums, not an index of records (a rollback cannot tell which of a
  // record's amounts they had counted): a load counts them from the records, a rollback counts again
  // the days of the accounts it touched, a removal and a reset forget them.

  afterLoad (): void {
    this.dailyCents.clear()
    for (const tx of Object.values(this.deps.store.data.transactions)) if (isKind(tx, PAYOUT_KINDS) && tx.status !== 'ERROR') this.addDaily(tx, 1)
  }

  afterRestore (restored: Restored): void {
    const accounts = new Set<number>()
    for (const tx of restored.of('transactions')) if (isKind(tx, PAYOUT_KINDS)) accounts.add(tx.accountId)
    for (const accountId of accounts) {
      this.forgetDaily(accountId)
      for (const tx of this.deps.store.transactionsOf(accountId)) if (isKind(tx, PAYOUT_KINDS) && tx.status !== 'ERROR') this.addDaily(tx, 1)
    }
  }

  forgetAccount (accountId: number): void {
    this.forgetDaily(accountId)
  }

  private forgetDaily (accountId: number): void {
    for (const key of [...this.dailyCents.keys()]) if (key.startsWith(`${accountId}|`)) this.dailyCents.delete(key)
  }

  afterReset (): void {
    this.dailyCents.clear()
  }
}

import QRCode from 'qrcode'
import { buildBrCode, toMerchantText } from '../domain/brcode.js'
import { gatewayCnpjForm, isValidDocument } from '../domain/documents.js'
import { txid as newTxid } from '../domain/ids.js'
import { isValidSplitKey } from '../domain/keys.js'
import { amountMessage, centsToNumber, centsToString, parseAmount, parseDecimalString, percentOf } from '../domain/money.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, DeepReadonly, MercadoPagoPayment, ChargeData, CobData, CobVData, Draft, SplitRecord, Transaction, TransactionOf } from '../store/state.js'
import { cobFieldProblems, revisedCob, type CnpjForm, type CobFields, type CobRequest, type CobRevision } from '../domain/cob.js'
import { chargeData, chargeDraft, isOpenCharge, newChargeRecord, txidInUse } from './charge-records.js'
import { percentageExcess } from '../domain/splits.js'
import { QR_IMAGE_OPTIONS } from '../domain/qr-image.js'
import { hasScenario } from '../../scenarios/resolver.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import type { ChargeAutoPay, CobVFields, CobVWrites, Lifecycle, Ports } from '../ports.js'
import { DueJobs, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import type { ChargeInstant, ChargeStage, ChargeStages } from './charge-stages.js'
import type { Config } from '../config.js'
import { iso, recordTransition } from './history.js'
import type { ExpiringRefs, ExpiringRefsInput } from './expiring-refs.js'
import { cobvLastPayableDate } from '../domain/cobv.js'
import { addCalendarDays } from '../domain/business-days.js'
import { parseLocalBound } from '../domain/calendar.js'

/**
 * Charges as their receiver makes and changes them: the gateway's cash-in and cob, API Pix's cob and
 * cobv, and a dialect's charge of a static-style code (Mercado Pago's payments); their lists and their
 * expiry. A charge is one transaction that becomes the received payment when it is paid
 * (charge-payments.ts): it gets the payment's endToEndId, `data.received`, and the credit. So
 * refund-in takes the cash-in's transactionId and devolução / MED take the endToEndId of the same record.
 */
export const LOCATION_HOST = 'pix.sandbox.local'
export const DEFAULT_EXPIRATION_SECONDS = 86_400

type Cob = TransactionOf<'COB'>
type CobV = TransactionOf<'COBV'>

/** A cash-in as POST /api/pix/cash-in asks for it (docs/gateway.md §2.6). */
export interface CashInInput {
  transaction: { value: number, description: string, externalId: string, expirationTime?: number, generateQrCode?: boolean }
  payer: { fullName: string, document: string }
  additionalInfo?: Record<string, string>
  splits?: Array<Pick<SplitRecord, 'pixKey' | 'pixKeyType' | 'name' | 'document' | 'type' | 'value'> & { immediate?: boolean }>
}

/** A charge of a static-style code (createCodeCharge). */
export interface CodeChargeInput {
  amountCents: number
  /** When it expires unpaid (sandbox ms). */
  dueAt: number
  description?: string
  /** The receiver's key its code names. */
  key: string
  /** Its txid (1 to 25 alphanumerics) and the dialect's data, from the record's seq. */
  of (seq: number): { txid: string, mercadoPago?: DeepReadonly<MercadoPagoPayment> }
  /** Other names it is found by for a while only (a dialect's idempotency key, `ExpiringRefs`). */
  expiringRefs?: ExpiringRefsInput
  /** Throws when the charge must not be made after all (checked in the unit that makes it). */
  duplicate? (): void
}

export type ChargeDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng' | 'fixtures' | 'events'> & {
  config: Pick<Config, 'alphanumericCnpj'>
  /** A dialect's idempotency key on a charge, kept for a while. */
  expiringRefs: ExpiringRefs
  /** AUTO_PAY, which the payments keep (charge-payments.ts): told of each charge made or cancelled. */
  autoPay: ChargeAutoPay
  /** The charges of static-style codes by stage (charge-stages.ts): told of each one made, cancelled or expired. */
  stages: ChargeStages
}

/**
 * A cob of API Pix: where it is served (a payload location of LocationService) instead of the root
 * family's own URL; its devedor.cnpj is read as API Pix writes it (alphanumeric too).
 */
export interface CobLocation {
  locId: number
  location: string
}

/** The list of an account's charges of one external reference (a dialect's `external_reference`). */
const codeChargeRefKey = (accountId: number, reference: string): string => `${accountId}\u0000${reference}`
const codeChargePayerKey = (accountId: number, field: 'id' | 'email', value: string): string => `${accountId}\u0001${field}\u0000${value}`

/** Which of an account's charges of static-style codes to read: those of one external reference, or of one payer (by id or email). */
export interface CodeChargesOf { externalReference?: string, payerId?: string, payerEmail?: string }

export class ChargeService implements Lifecycle, CobVWrites {
  /** An open charge's expiry, at its `dueAt`. */
  private readonly expiry: DueJobs<'transactions'>
  /** Each account's cobs and cobvs (`<account>:<kind>`), and every account's cobvs (`COBV`), in the order they were made: GET /cob and GET /cobv read those of their window, the control plane pages the cobvs. */
  private readonly made: RecordLists<'transactions'>
  /** The charges of static-style codes (a dialect's payments: Mercado Pago's) of each account, in the order made. */
  private readonly codeCharges: RecordLists<'transactions'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: ChargeDeps) {
    this.expiry = new DueJobs(deps.store, deps.scheduler, 'transactions', {
      purpose: 'charge-expiry',
      dueAt: tx => isOpenCharge(tx) && tx.dueAt ? Date.parse(tx.dueAt) : undefined,
      run: tx => this.expire(tx.id),
    })
    this.made = new RecordLists(deps.store, 'transactions', tx => tx.kind === 'COBV' ? [`${tx.accountId}:COBV`, 'COBV'] : tx.kind === 'COB' ? `${tx.accountId}:COB` : [], tx => tx.createdAt)
    this.codeCharges = new RecordLists(deps.store, 'transactions', tx => {
      if (tx.kind !== 'CASH_IN' || tx.data.mercadoPago === undefined) return []
      const { externalReference: reference, payer } = tx.data.mercadoPago
      const keys = [String(tx.accountId), codeChargePayerKey(tx.accountId, 'id', payer.id), codeChargePayerKey(tx.accountId, 'email', payer.email)]
      return reference === undefined ? keys : [...keys, codeChargeRefKey(tx.accountId, reference)]
    }, tx => tx.createdAt)
    this.derived = [this.expiry, this.made, this.codeCharges]
  }

  /** The account's cobs or cobvs created within the range, in the order they were made (GET /cob and GET /cobv list them). */
  chargesOf<K extends 'COB' | 'COBV'> (accountId: number, kind: K, created: InstantRange): Array<TransactionOf<K>> {
    return this.made.within(`${accountId}:${kind}`, created) as Array<TransactionOf<K>>
  }

  /** A page of the cobvs of every account or one, the last made first (`RecordLists.newestFirst`, with the same account). */
  newestCobVs (accountId: number | undefined, limit: number, cursor?: number): { records: Array<TransactionOf<'COBV'>>, nextCursor?: number } {
    return this.made.newestFirst(accountId === undefined ? 'COBV' : `${accountId}:COBV`, limit, cursor) as { records: Array<TransactionOf<'COBV'>>, nextCursor?: number }
  }

  private get store () { return this.deps.store }
  private now (): number { return this.deps.clock.now() }

  // ---- cash-in ----------------------------------------------------------------------------------

  /** POST /api/pix/cash-in: every rule of docs/gateway.md §2.6, then a PENDING charge with its dynamic BR Code. */
  async createCashIn (account: Account, body: CashInInput, scenarios: AppliedScenario[]): Promise<{ charge: Transaction, qrCodeImage?: string }> {
    const { transaction: t, payer } = body
    const value = parseAmount(t.value)
    if (!value.ok) throw new Refusal('PIX_INVALID_AMOUNT', amountMessage('transaction.value', value.reason))

    const problems: string[] = []
    if (t.description.trim() === '') problems.push('transaction.description não pode ser vazio')
    if (t.externalId.trim() === '') problems.push('transaction.externalId não pode ser vazio')
    if (payer.fullName.trim() === '') problems.push('payer.fullName não pode ser vazio')
    if (!isValidDocument(payer.document, gatewayCnpjForm(this.deps.config.alphanumericCnpj))) problems.push('payer.document deve ser um CPF (11 dígitos) ou CNPJ (14) válido')
    const splits: SplitRecord[] = []
    ;(body.splits ?? []).forEach((s, i) => {
      const at = `splits[${i}]`
      if (!isValidSplitKey(s.pixKeyType, s.pixKey)) problems.push(`${at}.pixKey não corresponde ao pixKeyType ${s.pixKeyType}`)
      if (!isValidDocument(s.document, 'digits')) problems.push(`${at}.document deve ser um CPF ou CNPJ válido, só dígitos`)
      const v = parseAmount(s.value)
      if (!v.ok) { problems.push(amountMessage(`${at}.value`, v.reason)); return }
      if (s.type === 'PERCENTAGE' && s.value > 100) { problems.push(`${at}.value deve ser no máximo 100 (percentual)`); return }
      const amountCents = s.type === 'FIXED' ? v.cents : percentOf(value.cents, s.value)
      if (amountCents < 1) { problems.push(`${at}.value resulta em menos de 0.01 sobre ${centsToString(value.cents)}`); return }
      splits.push({ pixKey: s.pixKey, pixKeyType: s.pixKeyType, name: s.name, document: s.document, type: s.type, value: s.value, immediate: s.immediate ?? false, amountCents, status: 'WAITING' })
    })
    if (problems.length > 0) throw invalidRequest(problems)
    const percentTotal = percentageExcess(splits)
    if (percentTotal !== null) {
      throw new Refusal('PIX_SPLIT_AMOUNT_EXCEEDED', `A soma dos splits PERCENTAGE (${centsToString(percentTotal)}%) excede 100%`, {
        details: { percentageTotal: centsToNumber(percentTotal) },
      })
    }

    const expiration = t.expirationTime ?? DEFAULT_EXPIRATION_SECONDS
    if (hasScenario(scenarios, 'PROVIDER_EXPIRATION_BELOW_MINIMUM') || expiration < account.cashInMinExpirationSeconds) {
      const minimum = Math.max(account.cashInMinExpirationSeconds, expiration + 1)
      throw new Refusal('PROVIDER_EXPIRATION_BELOW_MINIMUM', `expirationTime abaixo do mínimo exigido pelo provedor (${minimum} segundos)`, {
        details: { expirationTime: expiration, minimumExpirationTime: minimum },
      })
    }
    const splitsTotal = splits.reduce((sum, s) => sum + s.amountCents, 0)
    if (splitsTotal > value.cents) {
      throw new Refusal('PIX_SPLIT_AMOUNT_EXCEEDED', `A soma dos splits (${centsToString(splitsTotal)}) excede o valor da transação (${centsToString(value.cents)})`, {
        details: { splitsTotal: centsToNumber(splitsTotal), value: centsToNumber(value.cents) },
      })
    }
    if (hasScenario(scenarios, 'PROVIDER_UNAVAILABLE')) {
      throw new Refusal('PROVIDER_UNAVAILABLE', 'Falha de comunicação com o provedor de pagamento', {
        userMessage: 'O provedor de pagamento está indisponível. Tente novamente em instantes.',
        details: { retryable: true },
      })
    }

    const duplicate = (): void => {
      const existing = this.store.transactionByExternalId(account.id, 'cash-in', t.externalId)
      if (existing) {
        throw new Refusal('PIX_DUPLICATE_EXTERNAL_ID', `externalId ${t.externalId} já utilizado nesta conta`, {
          details: { externalId: t.externalId, existingTransactionId: existing.seq },
        })
      }
    }
    duplicate()
    const now = this.now()
    const id = this.deps.rng.uuid()
    const txid = newTxid(this.deps.rng, 25)
    const location = `${LOCATION_HOST}/qr/v2/${id}`
    // A dynamic code as BACEN's examples make one: no amount (tag 54) and `***` in tag 62-05; what the
    // payer pays and which charge it is are read from the charge when it is paid.
    const pixCode = this.dynamicCode(account, location)
    const data: ChargeData = {
      txid,
      location,
      pixCode,
      correlationId: this.deps.rng.uuid(),
      payer: { fullName: payer.fullName, document: payer.document },
      ...(body.additionalInfo ? { additionalInfo: { ...body.additionalInfo } } : {}),
      splits,
    }
    // The image comes first: a charge is stored only with everything its answer needs.
    const qrCodeImage = t.generateQrCode === true ? await QRCode.toDataURL(pixCode, QR_IMAGE_OPTIONS) : undefined
    // Check-and-insert in one unit with no await in between: concurrent duplicates create exactly one charge.
    const charge = this.store.transact(() => {
      // A reset or an import while the image was drawn ended the life of the account the request was for.
      const live = this.store.account(account.id)
      if (live === undefined || live.incarnation !== account.incarnation) {
        throw new Refusal('UNAUTHORIZED', 'A conta foi reiniciada ou substituída durante a requisição; solicite um novo token')
      }
      duplicate()
      const draft = newChargeRecord(this.deps, account, { kind: 'CASH_IN', data }, 'PENDING', value.cents, now, scenarios, id)
      draft.externalId = t.externalId
      draft.description = t.description
      draft.dueAt = iso(now + expiration * 1000)
      const added = this.store.addTransaction(draft, 'cash-in', [`loc:${location}`, `txid:${txid}`])
      this.scheduleTimers(added)
      return added
    })
    return { charge, ...(qrCodeImage !== undefined ? { qrCodeImage } : {}) }
  }

  // ---- a charge of a static-style code (Mercado Pago's payments) --------------------------------

  /**
   * A PENDING charge (kind CASH_IN) whose code names the receiver's key, its amount and its txid, as
   * Mercado Pago's Pix codes do (docs/mercado-pago.md): found by that txid when it is paid. The txid
   * and the dialect's own data are made once the record's seq is known (a PSP numbers its payments).
   * `duplicate` runs in the unit before anything is written (an idempotency key taken meanwhile).
   */
  createCodeCharge (account: Account, input: CodeChargeInput, scenarios: AppliedScenario[]): Transaction {
    return this.store.transact(() => {
      const live = this.store.account(account.id)
      if (live === undefined || live.incarnation !== account.incarnation) throw new Refusal('UNAUTHORIZED', 'The account was reset or replaced during the request')
      input.duplicate?.()
      const now = this.now()
      const draft = newChargeRecord(this.deps, account, { kind: 'CASH_IN', data: { txid: null, location: null, pixCode: null, splits: [] } }, 'PENDING', input.amountCents, now, scenarios)
      const { txid, mercadoPago } = input.of(draft.seq)
      const data = draft.data as ChargeData
      data.txid = txid
      data.pixCode = buildBrCode({ key: input.key, amountCents: input.amountCents, txid, merchantName: this.merchantName(account), merchantCity: this.deps.fixtures.institution.city })
      if (mercadoPago !== undefined) data.mercadoPago = structuredClone(mercadoPago) as ChargeData['mercadoPago']
      if (input.description !== undefined) draft.description = input.description
      draft.dueAt = iso(input.dueAt)
      const added = this.store.addTransaction(draft, undefined, [`txid:${txid}`, ...this.deps.expiringRefs.mark(data, input.expiringRefs)])
      this.scheduleTimers(added)
      this.deps.expiringRefs.follow(added)
      this.codeCharges.add(added)
      this.deps.stages.follow(added)
      this.deps.events.emit({ kind: 'charge-changed', accountId: account.id, transactionId: added.id, transition: 'created', scenarios })
      return this.store.transaction(added.id)!
    })
  }

  /**
   * An account's charges of static-style codes, oldest first, or those of one external reference or
   * payer (the first given of the three): what costs their number, not the account's every record.
   */
  codeChargesOf (accountId: number, of: CodeChargesOf = {}): Transaction[] {
    const key = of.externalReference !== undefined
      ? codeChargeRefKey(accountId, of.externalReference)
      : of.payerId !== undefined
        ? codeChargePayerKey(accountId, 'id', of.payerId)
        : of.payerEmail !== undefined ? codeChargePayerKey(accountId, 'email', of.payerEmail) : String(accountId)
    return this.codeCharges.listed(key)
  }

  /**
   * How many of an account's charges of static-style codes (those of one external reference) were made
   * within the range, and `limit` of them from the `offset`-th, the last made first when `newestFirst`:
   * what costs the page, whatever their number. Undefined when their list is out of order (an import): then `codeChargesOf`.
   */
  codeChargesMade (accountId: number, externalReference: string | undefined, created: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, charges: Transaction[] } | undefined {
    const page = this.codeCharges.pageWithin(externalReference === undefined ? String(accountId) : codeChargeRefKey(accountId, externalReference), created, offset, limit, newestFirst)
    return page === undefined ? undefined : { total: page.total, charges: page.records }
  }

  /**
   * The same for those in any of the stages (charge-stages.ts), in the order made: what costs the page.
   * Undefined when the account's list is out of order (an import), where `codeChargesOf` answers.
   */
  codeChargesMadeIn (accountId: number, stages: readonly ChargeStage[], externalReference: string | undefined, created: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, charges: Transaction[] } | undefined {
    if (!this.codeCharges.ordered(externalReference === undefined ? String(accountId) : codeChargeRefKey(accountId, externalReference))) return undefined
    return this.deps.stages.page(accountId, stages, externalReference, created, offset, limit, newestFirst)
  }

  /**
   * The same in the order of another instant (charge-stages.ts: the last change, the payment), over
   * the charges that reached it within the range: what costs the page.
   */
  codeChargesBy (accountId: number, instant: ChargeInstant, range: InstantRange, offset: number, limit: number, newestFirst: boolean): { total: number, charges: Transaction[] } {
    return this.deps.stages.pageBy(accountId, instant, range, offset, limit, newestFirst)
  }

  /**
   * An account's charges of static-style codes that were made, last changed or paid within the range
   * (a search that filters or sorts them further): what costs their number, not the account's.
   */
  codeChargesWithin (accountId: number, instant: ChargeInstant | 'made', range: InstantRange): Transaction[] {
    return instant === 'made' ? this.codeCharges.within(String(accountId), range) : this.deps.stages.within(accountId, instant, range)
  }

  /**
   * A page of an account's charges of static-style codes, the last made first: at most `limit` of those
   * made before the `cursor`-th (the `nextCursor` of the page before), and the cursor of the page after
   * while there is one. The cost is the page's, whatever the number of records.
   */
  codeChargePage (accountId: number, limit: number, cursor?: number): { charges: Transaction[], nextCursor?: number } {
    const ids = this.codeCharges.of(String(accountId))
    const end = Math.min(cursor ?? ids.length, ids.length)
    const start = Math.max(0, end - limit)
    const charges: Transaction[] = []
    for (let i = end - 1; i >= start; i--) {
      const tx = this.store.transaction(String(ids[i]))
      if (tx !== undefined) charges.push(tx)
    }
    return { charges, ...(start > 0 ? { nextCursor: start } : {}) }
  }

  /** The receiver cancels an unpaid cash-in (Mercado Pago's PUT status cancelled): ERROR with errorCode CANCELLED, no longer payable. */
  cancelCharge (charge: Transaction): Transaction {
    if (charge.kind !== 'CASH_IN' || !isOpenCharge(charge)) throw new Refusal('QRCODE_NOT_AVAILABLE', `This charge cannot be cancelled (${charge.status})`)
    return this.store.transact(() => {
      this.store.update('transactions', charge.id, d => {
        d.dueAt = undefined
        chargeDraft(d).autoPayAt = undefined
        d.errorCode = 'CANCELLED'
        d.errorMessage = 'Cobrança cancelada pelo recebedor'
        this.transition(d, 'ERROR', 'cancelled by receiver')
      })
      const cancelled = this.store.transaction(charge.id)!
      this.expiry.follow(cancelled)
      this.deps.stages.follow(cancelled)
      this.deps.autoPay.follow(cancelled)
      this.deps.events.emit({ kind: 'charge-changed', accountId: charge.accountId, transactionId: charge.id, transition: 'cancelled', scenarios: charge.scenarios })
      return cancelled
    })
  }

  /**
   * The receiver moves an unpaid cash-in's expiry (Mercado Pago's PUT date_of_expiration): its expiry
   * job follows the new instant, on the virtual clock, and the charge was updated now. Nothing is
   * announced (docs/assumptions.md, Mercado Pago).
   */
  moveExpiry (charge: Transaction, dueAt: number): Transaction {
    if (charge.kind !== 'CASH_IN' || !isOpenCharge(charge)) throw new Refusal('QRCODE_NOT_AVAILABLE', `This charge's expiry cannot be moved (${charge.status})`)
    return this.store.transact(() => {
      this.store.update('transactions', charge.id, d => {
        d.dueAt = iso(dueAt)
        d.updatedAt = iso(this.now())
        // The dialect's own record of the expiry it shows, kept with the one the scheduler reads.
        const mp = chargeDraft(d).mercadoPago
        if (mp !== undefined) mp.expiresAt = iso(dueAt)
      })
      const moved = this.store.transaction(charge.id)!
      this.expiry.follow(moved)
      this.deps.stages.follow(moved)
      return moved
    })
  }

  // ---- cob --------------------------------------------------------------------------------------

  /** PUT /cob/:txid (docs/gateway.md §2.8, 3.2, 7.7), and POST /cob (BACEN) with a txid generated here when `txid` is null. */
  createCob (account: Account, txid: string | null, body: CobRequest, scenarios: AppliedScenario[], at?: CobLocation): Cob {
    const problems = cobFieldProblems({ original: body.valor.original, devedor: body.devedor, chave: body.chave }, at ? 'alphanumeric' : 'digits')
    if (problems.length > 0) throw invalidRequest(problems)
    const originalCents = parseDecimalString(body.valor.original, 'exactly-2')
    // Check-and-insert in one unit, with no await in between.
    return this.store.transact(() => {
      // A txid of our own is drawn again while it is taken; the client's is kept as given.
      let id = txid ?? newTxid(this.deps.rng, 32)
      if (txid === null) while (this.store.chargeOfTxid(account.id, id) !== undefined) id = newTxid(this.deps.rng, 32)
      return this.insertCob(account, id, body, originalCents.ok ? originalCents.cents : 0, scenarios, at)
    })
  }

  private insertCob (account: Account, txid: string, body: CobRequest, originalCents: number, scenarios: AppliedScenario[], at?: CobLocation): Cob {
    const devedor = body.devedor
    // A txid names one charge of the account, whatever its kind (cob, cobv, cobr).
    const holder = this.store.chargeOfTxid(account.id, txid)
    if (holder !== undefined) throw txidInUse(txid, holder)
    const now = this.now()
    const expiracao = body.calendario.expiracao ?? DEFAULT_EXPIRATION_SECONDS
    const modalidadeAlteracao = body.valor.modalidadeAlteracao ?? 0
    const locId = at?.locId ?? this.store.nextSeq('loc')
    // The txid (26-35) does not fit tag 62-05 (at most 25): as in BACEN's dynamic codes, 62-05 is `***`
    // and the payload URL carries it.
    const location = at?.location ?? `${LOCATION_HOST}/qr/v2/cob/${locId}/${txid}`
    const pixCode = this.dynamicCode(account, location)
    const cob: CobData = {
      expiracao,
      ...(devedor ? { devedor: { ...devedor } } : {}),
      original: body.valor.original,
      modalidadeAlteracao,
      ...(body.chave !== undefined ? { chave: body.chave } : {}),
      ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      ...(body.infoAdicionais ? { infoAdicionais: body.infoAdicionais.map(i => ({ ...i })) } : {}),
      locId,
    }
    const draft = newChargeRecord(this.deps, account, { kind: 'COB', data: { txid, location, pixCode, splits: [], cob } }, 'ATIVA', originalCents, now, scenarios)
    if (body.solicitacaoPagador !== undefined) draft.description = body.solicitacaoPagador
    draft.dueAt = iso(now + expiracao * 1000)
    // An API Pix location finds its charge itself (it may be unbound, and bound to another charge later).
    const charge = this.store.addTransaction(draft, undefined, at ? [] : [`loc:${location}`])
    this.made.add(charge)
    this.scheduleTimers(charge)
    return charge
  }

  /**
   * A charge's dynamic BR Code (cash-in, cob, cobv), as BACEN's examples make them (the BR Code manual's
   * dynamic example, API Pix's pixCopiaECola): its location and no amount. The amount is the payload's,
   * read from the charge when it is paid (`codeAmount`): a code shown before a revision pays the
   * revised amount, a cobv's the amount due on the day, a cob with modalidadeAlteracao 1 what the payer names.
   */
  private dynamicCode (account: Account, location: string): string {
    return buildBrCode({ location, singleUse: true, merchantName: this.merchantName(account), merchantCity: this.deps.fixtures.institution.city })
  }

  cob (account: Account, txid: string): Cob {
    const charge = this.findCob(account, txid)
    if (!charge) throw new Refusal('NOT_FOUND', `Cobrança com txid ${txid} não encontrada`)
    return charge
  }

  /** The account's cob of this txid, if any. */
  findCob (account: Account, txid: string): Cob | undefined {
    const charge = this.store.chargeOfTxid(account.id, txid)
    return charge !== undefined && 'kind' in charge && charge.kind === 'COB' ? charge : undefined
  }

  /**
   * PATCH /cob/:txid (BACEN's CobRevisada): any field of the charge, and `status:
   * REMOVIDA_PELO_USUARIO_RECEBEDOR` to cancel it. Only an ATIVA charge is revised (409 otherwise);
   * `revisao` goes up by 1 when something really changed. A new value or modalidade gives a new BR
   * Code at the same location; a new expiracao counts from `criacao`, as BACEN's does.
   */
  reviseCob (account: Account, txid: string, body: CobRevision, cnpj: CnpjForm = 'digits'): Cob {
    const charge = this.cob(account, txid)
    const problems = cobFieldProblems({ original: body.valor?.original, devedor: body.devedor, chave: body.chave }, cnpj)
    const cob = chargeData(charge).cob!
    if (body.loc !== undefined && body.loc.id !== cob.locId) problems.push(`loc.id ${body.loc.id} não é a location desta cobrança`)
    if (problems.length > 0) throw invalidRequest(problems)
    if (charge.status !== 'ATIVA') throw new Refusal('COB_NOT_ACTIVE', `A cobrança está ${charge.status} e não pode ser revisada`)
    const { next, changed } = revisedCob(cob as CobFields, body)
    const cancelled = body.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR'
    if (!changed && !cancelled) return charge
    const originalCents = parseDecimalString(next.original, 'exactly-2')
    const cents = originalCents.ok ? originalCents.cents : charge.amountCents
    const dueAt = iso(Date.parse(charge.createdAt) + next.expiracao * 1000)
    this.store.transact(() => this.store.update('transactions', charge.id, d => {
      const data = chargeDraft(d)
      data.cob = { ...next, locId: cob.locId, revisao: (cob.revisao ?? 0) + 1 }
      d.amountCents = cents
      d.description = next.solicitacaoPagador
      if (cancelled) {
        d.dueAt = undefined
        this.transition(d, 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'cancelled by receiver')
      } else {
        d.dueAt = dueAt
      }
    }))
    const revised = this.store.transaction(charge.id)!
    // An expiracao already past: the charge expires now rather than at the next tick of the clock.
    if (!cancelled && Date.parse(dueAt) <= this.now()) this.expire(charge.id)
    else if (!cancelled) this.expiry.follow(revised)
    return this.cob(account, txid)
  }

  // ---- cobv (API Pix's due charges) -------------------------------------------------------------

  /** The account's cob or cobv of a txid (none when the txid is a cobr's: a txid names one charge of its account, whatever its kind). */
  cobOrCobV (account: Account, txid: string): Cob | CobV | undefined {
    const charge = this.store.chargeOfTxid(account.id, txid)
    return charge !== undefined && 'kind' in charge && (charge.kind === 'COB' || charge.kind === 'COBV') ? charge : undefined
  }

  /** The account's cobv of this txid, if any. */
  findCobV (account: Account, txid: string): CobV | undefined {
    const charge = this.cobOrCobV(account, txid)
    return charge?.kind === 'COBV' ? charge : undefined
  }

  /**
   * A cobv, ATIVA, served at a payload location: its fields as API Pix's service checked them. Its
   * code carries no amount; the PSP removes it once its last payable day is over (`dueAt`).
   */
  createCobV (account: Account, txid: string, fields: CobVFields, scenarios: AppliedScenario[], at: CobLocation): CobV {
    return this.store.transact(() => {
      const holder = this.store.chargeOfTxid(account.id, txid)
      if (holder !== undefined) throw txidInUse(txid, holder, 'cobv')
      const cobv: CobVData = { ...structuredClone(fields), locId: at.locId, revisao: 0 }
      const pixCode = this.dynamicCode(account, at.location)
      const draft = newChargeRecord(this.deps, account, { kind: 'COBV', data: { txid, location: at.location, pixCode, splits: [], cobv } }, 'ATIVA', originalCentsOf(fields), this.now(), scenarios)
      if (fields.solicitacaoPagador !== undefined) draft.description = fields.solicitacaoPagador
      draft.dueAt = iso(cobvRemovalAt(fields))
      const charge = this.store.addTransaction(draft)
      this.made.add(charge)
      this.scheduleTimers(charge)
      return charge
    })
  }

  /**
   * A cobv's fields replaced (API Pix's PUT on an existing cobv, and PATCH): `revisao` goes up by 1
   * when something really changed. Only an ATIVA cobv is revised. A last payable day already over
   * removes it now.
   */
  reviseCobV (charge: CobV, fields: CobVFields): CobV {
    if (charge.status !== 'ATIVA') throw new Refusal('COB_NOT_ACTIVE', `A cobrança está ${charge.status} e não pode ser revisada`)
    const current = charge.data.cobv
    const next: CobVData = { ...structuredClone(fields), locId: current.locId, revisao: current.revisao }
    if (canonicalJson(next) === canonicalJson(current)) return charge
    const dueAt = cobvRemovalAt(fields)
    this.store.transact(() => this.store.update('transactions', charge.id, d => {
      if (d.kind !== 'COBV') return
      d.data.cobv = { ...next, revisao: current.revisao + 1 }
      d.amountCents = originalCentsOf(fields)
      d.description = fields.solicitacaoPagador
      d.dueAt = iso(dueAt)
    }))
    if (dueAt <= this.now()) this.expire(charge.id)
    else this.expiry.follow(this.store.transaction(charge.id)!)
    return this.store.transaction(charge.id) as CobV
  }

  /** PATCH /cobv/{txid} with status REMOVIDA_PELO_USUARIO_RECEBEDOR: the receiver removes an ATIVA cobv. */
  cancelCobV (charge: CobV): CobV {
    if (charge.status !== 'ATIVA') throw new Refusal('COB_NOT_ACTIVE', `A cobrança está ${charge.status} e não pode ser revisada`)
    this.store.transact(() => this.store.update('transactions', charge.id, d => {
      if (d.kind !== 'COBV') return
      d.data.cobv.revisao += 1
      d.dueAt = undefined
      d.data.autoPayAt = undefined
      this.transition(d, 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'cancelled by receiver')
    }))
    return this.store.transaction(charge.id) as CobV
  }

  // ---- timers -----------------------------------------------------------------------------------

  /** A new charge: its expiry on the scheduler, and its AUTO_PAY told to the payments. Both jobs look the charge up again and do nothing if it moved on. */
  private scheduleTimers (charge: Transaction): void {
    this.expiry.follow(charge)
    this.deps.autoPay.follow(charge)
  }

  private expire (id: string): void {
    const charge = this.store.transaction(id)
    if (!charge || !isOpenCharge(charge) || !charge.dueAt || Date.parse(charge.dueAt) > this.now()) return
    this.store.transact(() => {
      this.store.update('transactions', id, d => {
        d.dueAt = undefined
        chargeDraft(d).autoPayAt = undefined
        if (d.kind === 'COB' || d.kind === 'COBV') {
          this.transition(d, 'REMOVIDA_PELO_PSP', 'expired')
        } else {
          d.errorCode = 'EXPIRED'
          d.errorMessage = 'Cobrança expirada sem pagamento'
          this.transition(d, 'ERROR', 'expired')
        }
        this.deps.events.emit({ kind: 'charge-changed', accountId: charge.accountId, transactionId: id, transition: 'expired', scenarios: charge.scenarios })
      })
      // Inside the unit, as every other write's follow: a rollback and its mend see it together.
      this.deps.stages.follow(this.store.transaction(id)!)
    })
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private merchantName (account: Account): string {
    return toMerchantText(account.name, 25) || 'RECEBEDOR PIX'
  }

  private transition<T extends Draft<Transaction>> (tx: T, status: T['status'], reason?: string): void {
    recordTransition(tx, status, iso(this.now()), reason)
  }
}

/** A cobv's `valor.original` in cents (checked by the domain before it reaches the service). */
function originalCentsOf (fields: CobVFields): number {
  const cents = parseDecimalString(fields.valor.original, 'exactly-2')
  return cents.ok ? cents.cents : 0
}

/**
 * When the PSP removes a cobv nobody paid (REMOVIDA_PELO_PSP, docs/assumptions.md): at the start of
 * the São Paulo day after its last payable day, when API Pix says it can no longer be paid.
 */
function cobvRemovalAt (fields: CobVFields): number {
  return parseLocalBound(addCalendarDays(cobvLastPayableDate(fields.calendario), 1), 'start')!
}

/** A JSON value written with its keys sorted, so two records compare equal whatever order their members came in. */
function canonicalJson (value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
    : v)
}

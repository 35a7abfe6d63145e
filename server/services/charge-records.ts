import { isValidDocument } from '../domain/documents.js'
import type { SeededRng } from '../domain/ids.js'
import { centsToString, MAX_CENTS } from '../domain/money.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Fixtures } from '../fixtures.js'
import type { Store } from '../store/store.js'
import { CHARGE_KINDS, isKind, type Account, type ChargeData, type ChargeKind, type ChargeOfTxid, type Counterpart, type DeepReadonly, type Draft, type Mutable, type Payer, type ReceivedPayment, type Transaction, type TransactionData, type TransactionOf, type TransactionStatus } from '../store/state.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { iso } from './history.js'

/*
 * A charge record (CASH_IN, COB, PIX_IN, COBV), read and made: shared by the services that write
 * charges (charges.ts makes them, charge-payments.ts pays them, received-pix.ts receives a PIX without
 * one), the split service, refunds, MED, the received-PIX view and the central-bank reads; apart from
 * the services, so that a view reads them without an import circle.
 */

/** The `data` of a charge (CASH_IN, COB, PIX_IN, COBV); another kind here is a bug, not an input. */
export function chargeData (tx: Transaction): DeepReadonly<ChargeData> {
  if (isKind(tx, CHARGE_KINDS)) return tx.data
  throw new Error(`transaction ${tx.id} is a ${tx.kind}, not a charge`)
}

/** The same, writable, for a charge being changed inside `Store.update`. */
export function chargeDraft (tx: Draft<Transaction>): ChargeData {
  if (isKind(tx, CHARGE_KINDS)) return tx.data
  throw new Error(`transaction ${tx.id} is a ${tx.kind}, not a charge`)
}

/** The received payment of a transaction, only when its money really arrived (credited). */
export function receivedOf (tx: Transaction): DeepReadonly<ReceivedPayment> | undefined {
  const credited = (tx.kind === 'CASH_IN' && tx.status === 'CONFIRMED') ||
    ((tx.kind === 'COB' || tx.kind === 'COBV') && tx.status === 'CONCLUIDA') ||
    (tx.kind === 'PIX_IN' && tx.status === 'CONFIRMED')
  return credited ? chargeData(tx).received : undefined
}

/** The receiver's key of a cob or a cobv: the one it names, else its account's document key (BACEN's answers always name one). */
export function cobChave (charge: Transaction, holder: Account | undefined): string {
  return chaveOf(charge) ?? holder?.document ?? ''
}

/** The payload location a cob or a cobv was created at (its `loc.id`); none for any other kind. */
export function locIdOf (tx: Transaction): number | undefined {
  if (tx.kind === 'COBV') return tx.data.cobv.locId
  return tx.kind === 'COB' ? tx.data.cob.locId : undefined
}

/** The receiver's key a charge names (a cob's or a cobv's `chave`, the key of the static code a PIX paid), when it names one. */
export function chaveOf (tx: Transaction): string | undefined {
  if (tx.kind === 'COBV') return tx.data.cobv.chave
  if (tx.kind === 'PIX_IN' && tx.data.chave !== undefined) return tx.data.chave
  return chargeData(tx).cob?.chave
}

/** How each kind of charge a txid names is called, as the refusal of a txid in use says. */
const NAMED = { cob: 'uma cobrança imediata (cob)', cobv: 'uma cobrança com vencimento (cobv)', cobr: 'uma cobrança recorrente (cobr)' } as const

/** API Pix's name of a charge's kind: cob, cobv or cobr. */
export function txidKind (charge: ChargeOfTxid): keyof typeof NAMED {
  if (!('kind' in charge)) return 'cobr'
  return charge.kind === 'COBV' ? 'cobv' : 'cob'
}

/**
 * A txid another charge of the account holds, whatever its kind (docs/api-pix.md, "One txid, one
 * charge"). On API Pix, `entity` names the field as its violations do (`cob.txid`, `cobv.txid`, in
 * the words of the YAML's `cobr.txid` "encontra-se em uso"); the gateway has no violations.
 */
export function txidInUse (txid: string, holder: ChargeOfTxid, entity?: 'cob' | 'cobv'): Refusal {
  const why = `o txid ${txid} é de ${NAMED[txidKind(holder)]} desta conta`
  return entity === undefined
    ? new Refusal('COB_TXID_EXISTS', `A cobrança com txid ${txid} já existe: ${why}`)
    : new Refusal('COB_TXID_EXISTS', `O campo ${entity}.txid encontra-se em uso: ${why}`, { fields: [`${entity}.txid`] })
}

// ---- making one -----------------------------------------------------------------------------------

/** What a simulated payer looks like when none is given (AUTO_PAY, /__sandbox/pix/pay without payer). */
export const DEFAULT_PAYER: Payer = { name: 'PAGADOR SANDBOX', document: '52998224725', ispb: '00000000', bankName: 'BANCO DO BRASIL S.A.' }

/** Money that would take an account past what it can hold (ledger.canReceive): nothing is credited. */
export const cannotReceive = (): Refusal =>
  new Refusal('ACCOUNT_LIMIT_REACHED', `The receiving account cannot hold more: its gross balance would exceed ${centsToString(MAX_CENTS)}, or its received total its limit`)

/** A charge that may still be paid, expire or be cancelled: a cash-in PENDING, a cob or cobv ATIVA. */
export function isOpenCharge (charge: Transaction): boolean {
  return (charge.kind === 'CASH_IN' && charge.status === 'PENDING') || ((charge.kind === 'COB' || charge.kind === 'COBV') && charge.status === 'ATIVA')
}

/** The counterpart of a received payment: its payer, whose branch and account the gateway does not show. */
export function payerCounterpart (payer: Payer): Counterpart {
  return { name: payer.name, document: payer.document, ispb: payer.ispb, bankName: payer.bankName, bankCode: null, accountBranch: null, accountNumber: null }
}

/** A payer as the control plane names one (`/__sandbox/pix/pay`, `/__sandbox/pix/incoming`), or the default payer. */
export function simulatedPayer (input: { name: string, document: string, ispb?: string } | undefined, institution: Fixtures['institution']): Payer {
  if (!input) return { ...DEFAULT_PAYER }
  if (!isValidDocument(input.document)) throw invalidRequest('payer.document must be a valid CPF or CNPJ')
  const ispb = input.ispb ?? DEFAULT_PAYER.ispb
  return { name: input.name, document: input.document, ispb, bankName: bankNameOf(ispb, institution) }
}

/** The name of a payer's institution: this sandbox's, the default payer's bank, or one named after its ISPB. */
export function bankNameOf (ispb: string, institution: Fixtures['institution']): string {
  return ispb === institution.ispb ? institution.name : ispb === DEFAULT_PAYER.ispb ? DEFAULT_PAYER.bankName : `INSTITUICAO ${ispb}`
}

/** The kind of a charge record being made, with the `data` of that kind. */
export type NewCharge<K extends ChargeKind> = { kind: K, data: TransactionData[K] }

/** A new charge record of the account, incoming, not yet stored: its seq is drawn now. */
export function newChargeRecord<K extends ChargeKind> (deps: { store: Store, rng: SeededRng }, account: Account, what: NewCharge<K>, status: TransactionStatus<K>, amountCents: number, now: number, scenarios: AppliedScenario[], id = deps.rng.uuid()): Mutable<TransactionOf<K>> {
  const at = iso(now)
  // `kind`, `data` and `status` are one kind's, which the compiler cannot follow through a spread of a generic.
  return {
    id,
    seq: deps.store.nextSeq('transaction'),
    accountId: account.id,
    ...what,
    direction: 'IN',
    status,
    amountCents,
    feeCents: 0,
    errorCode: null,
    errorMessage: null,
    ...(scenarios.length > 0 ? { scenarios } : {}),
    createdAt: at,
    updatedAt: at,
    history: [{ status, at }],
  } as unknown as Mutable<TransactionOf<K>>
}

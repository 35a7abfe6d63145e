import { cobvPayloadValor, type CobVAmounts } from '../../../domain/cobv.js'
import { documentKind } from '../../../domain/documents.js'
import { centsToString } from '../../../domain/money.js'
import type { Fixtures } from '../../../fixtures.js'
import type { Store } from '../../../store/store.js'
import type { PayloadLocation, Transaction, TransactionOf } from '../../../store/state.js'
import type { RefundReads } from '../../../ports.js'
import { chargeData, receivedOf } from '../../../services/charge-records.js'
import { iso } from '../../../services/history.js'
import { cobTerms, devolucoesOf, receivedPixView } from '../../shared/bacen.js'

/*
 * API Pix's charges and received PIX as it shows them (docs/api-pix.md, cob, cobv, pix): pure
 * functions of the records, read straight from them (never from another dialect's answer).
 */

type Cob = TransactionOf<'COB'>
type CobV = TransactionOf<'COBV'>

export interface ChargeViewDeps {
  store: Pick<Store, 'account'>
  fixtures: Pick<Fixtures, 'institution'>
  refunds: RefundReads
  /** The location a cob shows (its payload location while bound, the gateway's own URL), null for none. */
  cobs: { locationOf (charge: Cob): { id: number, location: string, criacao: string } | null }
  /** The payload location a cobv is served at, while it is bound to it. */
  locations: { ofCharge (charge: CobV): PayloadLocation | undefined }
  /** The txid a received PIX carries on API Pix, and the key it was paid to (ApiPixPixService). */
  pix: { txidOf (tx: Transaction): string | null, chaveOf (tx: Transaction): string | undefined }
}

/** A received PIX as API Pix shows it (Pix): GET /pix/{e2eid}, GET /pix, a paid cob's `pix[]` and the `/pix` callback. */
export function pixView (deps: ChargeViewDeps, tx: Transaction) {
  const received = receivedOf(tx)!
  const txid = deps.pix.txidOf(tx)
  const chave = deps.pix.chaveOf(tx)
  const valor = centsToString(received.amountCents)
  return {
    endToEndId: received.endToEndId,
    ...(txid !== null ? { txid } : {}),
    valor,
    // An immediate charge is paid its value as it is: no interest, fine, rebate or discount.
    ...(tx.kind === 'COB' ? { componentesValor: { original: { valor } } } : {}),
    ...(chave !== undefined ? { chave } : {}),
    horario: received.at,
    devolucoes: devolucoesOf(deps.refunds, tx),
  }
}

/** What a cob and its payload share: the charge as its receiver set it. */
function cobFields (deps: ChargeViewDeps, charge: Cob) {
  const d = chargeData(charge)
  const cob = d.cob!
  return {
    calendario: { criacao: charge.createdAt, expiracao: cob.expiracao },
    txid: d.txid!,
    revisao: cob.revisao ?? 0,
    ...cobTerms(charge, deps.store.account(charge.accountId)),
  }
}

/**
 * A cob as API Pix shows it (CobGerada, CobCompleta): location, loc and pixCopiaECola only while it
 * has a location; its `pix` as GET /pix/{e2eid} shows them.
 */
export function cobView (deps: ChargeViewDeps, charge: Cob) {
  const rest = { ...cobFields(deps, charge), ...(receivedOf(charge) !== undefined ? { pix: [pixView(deps, charge)] } : {}) }
  const at = deps.cobs.locationOf(charge)
  if (at === null) return rest
  return {
    ...rest,
    loc: { id: at.id, location: at.location, tipoCob: 'cob' as const, criacao: at.criacao, txid: rest.txid },
    location: at.location,
    pixCopiaECola: chargeData(charge).pixCode!,
  }
}

/** The payload of a cob (CobPayload): what a payer's app shows, as of when it is read (`apresentacao`, the instant `now`). */
export function cobPayload (deps: ChargeViewDeps, charge: Cob, now: number): Record<string, unknown> {
  const { calendario, ...rest } = cobFields(deps, charge)
  return { calendario: { criacao: calendario.criacao, apresentacao: iso(now), expiracao: calendario.expiracao }, ...rest }
}

/**
 * The address every receiver shows in `recebedor` (DadosRecebedor requires one): the sandbox keeps
 * no address of its accounts (docs/assumptions.md, API Pix).
 */
const RECEIVER_ADDRESS = { logradouro: 'ENDERECO NAO INFORMADO', uf: 'SP', cep: '01001000' }

/** DadosRecebedor of an account: its name and document, at the sandbox's one address. */
function recebedor (deps: ChargeViewDeps, accountId: number) {
  const account = deps.store.account(accountId)
  const document = account?.document ?? ''
  return {
    ...(documentKind(document) === 'CPF' ? { cpf: document } : { cnpj: document }),
    nome: account?.name ?? '',
    logradouro: RECEIVER_ADDRESS.logradouro,
    cidade: deps.fixtures.institution.city,
    uf: RECEIVER_ADDRESS.uf,
    cep: RECEIVER_ADDRESS.cep,
  }
}

/** A cobv as API Pix shows it (CobVGerada, CobVCompleta): location, loc and pixCopiaECola while it has a location; pix once paid. */
export function cobvView (deps: ChargeViewDeps, charge: CobV) {
  const d = charge.data
  const cobv = d.cobv
  const loc = deps.locations.ofCharge(charge)
  return {
    calendario: { criacao: charge.createdAt, ...cobv.calendario },
    txid: d.txid,
    revisao: cobv.revisao,
    ...(loc !== undefined ? { loc: { id: loc.id, location: loc.location, tipoCob: 'cobv' as const, criacao: loc.createdAt, txid: d.txid }, location: loc.location } : {}),
    status: charge.status,
    devedor: cobv.devedor,
    recebedor: recebedor(deps, charge.accountId),
    valor: cobv.valor,
    chave: cobv.chave,
    ...(cobv.solicitacaoPagador !== undefined ? { solicitacaoPagador: cobv.solicitacaoPagador } : {}),
    ...(cobv.infoAdicionais !== undefined ? { infoAdicionais: cobv.infoAdicionais } : {}),
    ...(loc !== undefined ? { pixCopiaECola: d.pixCode } : {}),
    ...(receivedOf(charge) !== undefined ? { pix: [receivedPixView(deps.refunds, charge)] } : {}),
  }
}

/** The payload of a cobv (CobVPayload) read at `now`, with the amounts due on the payment date the payer named. */
export function cobvPayload (deps: ChargeViewDeps, charge: CobV, amounts: CobVAmounts, now: number): Record<string, unknown> {
  const { calendario, txid, revisao, status, devedor, recebedor, chave, solicitacaoPagador, infoAdicionais } = cobvView(deps, charge)
  return {
    calendario: { criacao: calendario.criacao, apresentacao: iso(now), dataDeVencimento: calendario.dataDeVencimento, validadeAposVencimento: calendario.validadeAposVencimento },
    txid,
    revisao,
    status,
    devedor,
    recebedor,
    valor: cobvPayloadValor(amounts),
    chave,
    ...(solicitacaoPagador !== undefined ? { solicitacaoPagador } : {}),
    ...(infoAdicionais !== undefined ? { infoAdicionais } : {}),
  }
}

import { documentKind } from '../../domain/documents.js'
import { centsToString } from '../../domain/money.js'
import type { Account, Natureza, Transaction, TransactionOf } from '../../store/state.js'
import { chargeData, chaveOf, cobChave, receivedOf } from '../../services/charge-records.js'
import { refundData, refundStatusAs } from '../../services/refunds.js'
import type { RefundReads } from '../../ports.js'

/*
 * BACEN's shapes (API Pix 2.9.0) that two dialects answer in: the gateway's central-bank-compatible
 * routes and API Pix show a received PIX and a devolução alike. Pure functions of the records.
 */

/** A devolução as BACEN shows it (GET /pix/{e2eid}/devolucao/{id}, and inside a received PIX's `devolucoes`). */
export interface DevolucaoView {
  id: string
  rtrId: string
  valor: string
  natureza: Natureza
  descricao?: string
  horario: { solicitacao: string, liquidacao?: string }
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO'
  motivo?: string
}

/** Either kind of refund in the central bank's words (a refund-in made with an externalId is readable here too). */
export function devolucaoView (tx: Transaction): DevolucaoView {
  const d = refundData(tx)
  return {
    id: d.devolucaoId,
    rtrId: d.rtrId,
    valor: centsToString(tx.amountCents),
    natureza: d.natureza,
    ...(d.descricao !== undefined ? { descricao: d.descricao } : {}),
    horario: { solicitacao: d.requestedAt, ...(d.settledAt !== undefined ? { liquidacao: d.settledAt } : {}) },
    status: refundStatusAs('DEVOLUCAO', tx),
    ...(d.motivo !== null ? { motivo: d.motivo } : {}),
  }
}

/** The devoluções of a received payment, oldest first. */
export function devolucoesOf (refunds: RefundReads, original: Transaction): DevolucaoView[] {
  return refunds.refundsOf(original).map(devolucaoView)
}

/**
 * A received PIX in BACEN's `Pix` shape (API Pix 2.9.0): what `GET /pix/{e2eid}`, `GET /pix` and a
 * paid cob's (or cobv's) `pix[]` show. `tx` is a CASH_IN, COB, PIX_IN or COBV whose money arrived.
 */
export function receivedPixView (refunds: RefundReads, tx: Transaction) {
  const d = chargeData(tx)
  const received = receivedOf(tx)!
  const payer = received.payer
  const chave = chaveOf(tx)
  return {
    endToEndId: received.endToEndId,
    ...(d.txid !== null ? { txid: d.txid } : {}),
    valor: centsToString(received.amountCents),
    ...(chave !== undefined ? { chave } : {}),
    horario: received.at,
    pagador: { nome: payer.name, ...(documentKind(payer.document) === 'CPF' ? { cpf: payer.document } : { cnpj: payer.document }) },
    devolucoes: devolucoesOf(refunds, tx),
  }
}

/**
 * What a cob (BACEN's CobCompleta) says of the charge its receiver set, after its calendario, txid and
 * revisao, in both dialects: its status, devedor, valor, chave, solicitacaoPagador and infoAdicionais.
 */
export function cobTerms (charge: TransactionOf<'COB'>, holder: Account | undefined) {
  const cob = chargeData(charge).cob!
  return {
    status: charge.status,
    ...(cob.devedor ? { devedor: { ...cob.devedor } } : {}),
    valor: { original: cob.original, modalidadeAlteracao: cob.modalidadeAlteracao },
    // BACEN's answer always names the receiver's key: without one in the request, the account's document key.
    chave: cobChave(charge, holder),
    ...(cob.solicitacaoPagador !== undefined ? { solicitacaoPagador: cob.solicitacaoPagador } : {}),
    ...(cob.infoAdicionais ? { infoAdicionais: cob.infoAdicionais } : {}),
  }
}

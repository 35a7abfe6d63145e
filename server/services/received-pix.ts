import { documentKind } from '../domain/documents.js'
import { centsToString } from '../domain/money.js'
import type { Transaction } from '../store/state.js'
import { chargeData, chaveOf, receivedOf } from './charge-records.js'
import type { Devolucoes } from '../ports.js'

/**
 * A received PIX in BACEN's `Pix` shape (API Pix 2.9.0): what `GET /pix/{e2eid}`, `GET /pix` and a
 * paid cob's (or cobv's) `pix[]` show. `tx` is a CASH_IN, COB, PIX_IN or COBV whose money arrived.
 */
export function receivedPixView (refunds: Devolucoes, tx: Transaction) {
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
    devolucoes: refunds.devolucoesOf(tx),
  }
}

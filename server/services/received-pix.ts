import { documentKind } from '../domain/documents.js'
import { centsToString } from '../domain/money.js'
import type { Transaction } from '../store/state.js'
import { chargeData, receivedOf } from './charge-records.js'
import type { Devolucoes } from '../ports.js'

/**
 * A received PIX in BACEN's `Pix` shape (API Pix 2.9.0): what `GET /pix/{e2eid}`, `GET /pix` and a
 * paid cob's `pix[]` show. `tx` is a CASH_IN, COB or PIX_IN whose money arrived.
 */
export function receivedPixView (refunds: Devolucoes, tx: Transaction) {
  const d = chargeData(tx)
  const received = receivedOf(tx)!
  const payer = received.payer
  return {
    endToEndId: received.endToEndId,
    ...(d.txid !== null ? { txid: d.txid } : {}),
    valor: centsToString(received.amountCents),
    ...(d.cob?.chave !== undefined ? { chave: d.cob.chave } : {}),
    horario: received.at,
    pagador: { nome: payer.name, ...(documentKind(payer.document) === 'CPF' ? { cpf: payer.document } : { cnpj: payer.document }) },
    devolucoes: refunds.devolucoesOf(tx),
  }
}

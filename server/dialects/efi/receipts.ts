import { saoPauloInstant } from '../../domain/calendar.js'
import { maskDocument } from '../../domain/documents.js'
import { centsToString } from '../../domain/money.js'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import { receivedOf } from '../../services/charge-records.js'
import { PAYOUT_SCOPE } from '../../services/payouts.js'
import type { Account, Transaction } from '../../store/state.js'
import { textPdf, type PdfLine } from './pdf.js'
import { envioOf } from './views.js'

/**
 * Efí's receipts (`GET /v2/gn/pix/comprovantes`, docs/efi.md): a one-page PDF of a PIX the account sent
 * (by its e2eid or idEnvio), received (by its e2eid, or the txid of the charge it paid) or a devolução it
 * received on a pay-out (by its rtrId).
 */

export interface ReceiptQuery { e2eid?: string, e2eId?: string, idEnvio?: string, rtrId?: string, txid?: string }

const NOT_FOUND = 'Comprovante não encontrado para o identificador informado'

export class EfiReceipts {
  constructor (private readonly sb: Sandbox) {}

  /** The receipt's file name and bytes. */
  receipt (account: Account, q: ReceiptQuery): { name: string, pdf: Buffer } {
    const given = (['e2eid', 'e2eId', 'idEnvio', 'rtrId', 'txid'] as const).filter(k => q[k] !== undefined)
    if (given.length !== 1) throw invalidRequest(['Informe apenas um dos parâmetros e2eid, idEnvio, rtrId ou txid'])
    const key = given[0]
    const id = q[key]!
    const tx = key === 'idEnvio'
      ? this.sb.store.transactionByExternalId(account.id, PAYOUT_SCOPE, id)
      : key === 'txid' ? this.sb.store.transactionByRef(id) : this.sb.store.transactionByEndToEndId(id)
    if (tx === undefined || tx.accountId !== account.id) throw new Refusal('NOT_FOUND', NOT_FOUND)
    const lines = key === 'rtrId' ? this.returned(tx) : this.sent(account, tx) ?? this.received(account, tx)
    if (lines === undefined) throw new Refusal('NOT_FOUND', NOT_FOUND)
    return { name: `comprovante-${id}.pdf`, pdf: textPdf(lines[0].text, lines) }
  }

  private party (label: string, name: string, document: string, bank: string): PdfLine[] {
    return [{ text: label, heading: true }, { text: `Nome: ${name}` }, { text: `Documento: ${maskDocument(document)}` }, { text: `Instituição: ${bank}` }]
  }

  private sent (account: Account, t: Transaction): PdfLine[] | undefined {
    const tx = envioOf(t)
    if (tx === undefined || tx.status !== 'CONFIRMED') return undefined
    const c = tx.counterpart
    return [
      { text: 'Comprovante de Pix enviado', heading: true },
      { text: `Valor: R$ ${centsToString(tx.amountCents)}` },
      { text: `Data e hora: ${saoPauloInstant(Date.parse(tx.updatedAt))} (horário de Brasília)` },
      { text: `E2EID: ${tx.endToEndId ?? ''}` },
      { text: `ID de envio: ${tx.externalId ?? ''}` },
      ...(tx.description !== undefined ? [{ text: `Informação do pagador: ${tx.description}` }] : []),
      ...this.party('Pagador', account.name, account.document, account.bankName),
      { text: `Chave: ${tx.data.senderKey ?? ''}` },
      ...this.party('Recebedor', c?.name ?? '', c?.document ?? '', c?.bankName ?? ''),
      ...(tx.pixKey ? [{ text: `Chave: ${tx.pixKey}` }] : []),
    ]
  }

  private received (account: Account, tx: Transaction): PdfLine[] | undefined {
    const r = receivedOf(tx)
    if (r === undefined) return undefined
    return [
      { text: 'Comprovante de Pix recebido', heading: true },
      { text: `Valor: R$ ${centsToString(r.amountCents)}` },
      { text: `Data e hora: ${saoPauloInstant(Date.parse(r.at))} (horário de Brasília)` },
      { text: `E2EID: ${r.endToEndId}` },
      ...this.party('Pagador', r.payer.name, r.payer.document, r.payer.bankName),
      ...this.party('Recebedor', account.name, account.document, account.bankName),
    ]
  }

  private returned (tx: Transaction): PdfLine[] | undefined {
    if (tx.kind !== 'REFUND_RECEIVED') return undefined
    const original = envioOf(this.sb.store.transaction(tx.data.originalId))
    return [
      { text: 'Comprovante de devolução Pix recebida', heading: true },
      { text: `Valor: R$ ${centsToString(tx.amountCents)}` },
      { text: `Data e hora: ${saoPauloInstant(Date.parse(tx.createdAt))} (horário de Brasília)` },
      { text: `RtrId: ${tx.endToEndId ?? ''}` },
      ...(original !== undefined ? [{ text: `Pix devolvido: ${original.endToEndId ?? ''} (ID de envio ${original.externalId ?? ''})` }] : []),
    ]
  }
}

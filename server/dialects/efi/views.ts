import { maskDocument } from '../../domain/documents.js'
import { centsToString } from '../../domain/money.js'
import { isKind, type Transaction, type TransactionOf } from '../../store/state.js'
import type { PixSentCallbackType, PixSentDetailType } from './schemas.js'

/**
 * Efí's shapes of a sent PIX (docs/efi.md): the read of `GET /v2/gn/pix/enviados/*` and the callback
 * posted to the payer key's webhook, from the pay-out's record (a CASH_OUT or CASH_OUT_QRCODE that
 * names the key it was sent from).
 */

export type Envio = TransactionOf<'CASH_OUT' | 'CASH_OUT_QRCODE'>

/** A pay-out of Efí's routes: one sent from a key of the account (its `pagador.chave`). */
export function envioOf (tx: Transaction | undefined): Envio | undefined {
  return tx !== undefined && isKind(tx, ['CASH_OUT', 'CASH_OUT_QRCODE'] as const) && tx.data.senderKey !== undefined ? tx : undefined
}

export const ENVIO_STATUS = { PENDING: 'EM_PROCESSAMENTO', CONFIRMED: 'REALIZADO', ERROR: 'NAO_REALIZADO' } as const

/** When it settled, if it did. */
export function settledAt (tx: Envio): string | undefined {
  if (tx.status !== 'CONFIRMED') return undefined
  const history: ReadonlyArray<{ status: string, at: string }> = tx.history
  for (let i = history.length - 1; i >= 0; i--) if (history[i].status === 'CONFIRMED') return history[i].at
  return undefined
}

/** A CPF or CNPJ masked as Efí shows a third party's, under its own name. */
function maskedDocument (document: string | undefined): { cpf: string } | { cnpj: string } | Record<string, never> {
  if (document === undefined || document === '') return {}
  return document.length === 11 ? { cpf: maskDocument(document) } : { cnpj: maskDocument(document) }
}

function favorecidoOf (tx: Envio): PixSentDetailType['favorecido'] {
  const c = tx.counterpart
  if (tx.kind === 'CASH_OUT' && tx.data.keyType === 'ACCOUNT') {
    return {
      contaBanco: {
        nome: c?.name ?? tx.data.name,
        ...maskedDocument(c?.document ?? tx.data.document),
        codigoBanco: c?.ispb ?? '',
        agencia: c?.accountBranch ?? '',
        conta: c?.accountNumber ?? '',
        tipoConta: tx.data.accountType ?? 'cacc',
      },
    }
  }
  const nome = c?.name ?? (tx.kind === 'CASH_OUT' ? tx.data.name : tx.data.name ?? tx.data.brCode.merchantName)
  const document = c?.document ?? tx.data.document
  return { ...(tx.pixKey ? { chave: tx.pixKey } : {}), identificacao: { nome, ...maskedDocument(document) } }
}

/** GET /v2/gn/pix/enviados/:e2eId and /id-envio/:idEnvio, and each item of the list. */
export function envioView (tx: Envio, devolucoes: readonly Transaction[] = []): PixSentDetailType {
  const liquidacao = settledAt(tx)
  return {
    endToEndId: tx.endToEndId ?? '',
    idEnvio: tx.externalId ?? '',
    valor: centsToString(tx.amountCents),
    chave: tx.data.senderKey ?? '',
    status: ENVIO_STATUS[tx.status],
    ...(tx.description !== undefined ? { infoPagador: tx.description } : {}),
    horario: { solicitacao: tx.createdAt, ...(liquidacao !== undefined ? { liquidacao } : {}) },
    favorecido: favorecidoOf(tx),
    ...(devolucoes.length > 0 ? { devolucoes: devolucoes.map(devolucaoOf) } : {}),
  }
}

/** The pacs.002 reason of each way a pay-out fails (docs/efi.md, the callback of a sent PIX). */
const PACS002: Readonly<Record<string, string>> = {
  TAX_ID_MISMATCH: 'BE01',
  PROVIDER_REJECTED: 'BE01',
  INVALID_TAX_ID: 'BE17',
  BLOCKED_ACCOUNT: 'AC06',
  ACCOUNT_CLOSED: 'AC07',
  ORDER_REJECTED: 'RR04',
  PAYMENT_EXPIRED: 'AB03',
  SETTLEMENT_TIMEOUT: 'AB03',
}

/** What the payer key's settings add to the callback (PUT /v2/gn/config, `chaves{key}.envio.webhook.notificacao`). */
export interface SentNotification { tarifa?: boolean, favorecido?: boolean }

/** Efí's callback of a sent PIX that settled (REALIZADO) or failed (NAO_REALIZADO, with `gnExtras.erro`). */
export function envioCallback (tx: Envio, notify: SentNotification = {}): PixSentCallbackType {
  const done = tx.status === 'CONFIRMED'
  const c = tx.counterpart
  return {
    pix: [{
      endToEndId: tx.endToEndId ?? '',
      chave: tx.data.senderKey ?? '',
      tipo: 'SOLICITACAO',
      status: done ? 'REALIZADO' : 'NAO_REALIZADO',
      valor: centsToString(tx.amountCents),
      horario: done ? settledAt(tx) ?? tx.updatedAt : null,
      ...(tx.description !== undefined ? { infoPagador: tx.description } : {}),
      gnExtras: {
        idEnvio: tx.externalId ?? '',
        ...(notify.tarifa === true ? { tarifa: centsToString(tx.feeCents) } : {}),
        ...(notify.favorecido === true && c !== undefined ? { favorecido: { nome: c.name, ...maskedDocument(c.document), codigoBanco: c.ispb } } : {}),
        ...(done ? {} : { erro: { codigo: PACS002[tx.errorCode ?? ''] ?? 'AB03', origem: 'PSP do usuário recebedor', motivo: tx.errorMessage ?? 'Pagamento não realizado' } }),
      },
    }],
  }
}

/** A devolução received on a sent PIX, as the callback lists it (API Pix's devolução, its rtrId as its id). */
export function devolucaoOf (refund: Transaction): NonNullable<PixSentCallbackType['pix'][number]['devolucoes']>[number] {
  return { id: refund.endToEndId ?? '', rtrId: refund.endToEndId ?? '', valor: centsToString(refund.amountCents), horario: { solicitacao: refund.createdAt, liquidacao: refund.createdAt }, status: 'DEVOLVIDO' }
}

import { centsToNumber } from '../../domain/money.js'
import { invariantHolds } from '../../domain/ledger.js'
import type { Account, Transaction } from '../../store/state.js'
import { chargeData } from '../../services/charge-records.js'
import { grantedScopes } from '../../domain/scopes.js'

/** The control plane's view of an account: settings in BRL, balances, and whether the ledger adds up. */
export function accountView (a: Account) {
  const b = a.balance
  const t = a.totals
  return {
    accountId: a.id,
    name: a.name,
    document: a.document,
    ispb: a.ispb,
    bankName: a.bankName,
    clientId: a.clientId,
    clientSecret: a.clientSecret,
    certificate: a.certificatePem,
    certificateFingerprints: [...a.certificateFingerprints],
    providerGroup: a.providerGroup,
    documentCheck: a.documentCheck,
    fee: centsToNumber(a.feeCents),
    limits: {
      perTransaction: centsToNumber(a.limits.perTransactionCents),
      daily: centsToNumber(a.limits.dailyCents),
      nightly: centsToNumber(a.limits.nightlyCents),
    },
    cashInMinExpirationSeconds: a.cashInMinExpirationSeconds,
    splitFrequency: a.splitFrequency,
    efiHomologacao: a.efiHomologacao === true,
    webhookMtlsCheck: a.webhookMtlsCheck !== false,
    accountNumber: String(a.id),
    scopes: [...grantedScopes(a)],
    balance: { available: centsToNumber(b.availableCents), blocked: centsToNumber(b.blockedCents), gross: centsToNumber(b.availableCents + b.blockedCents) },
    totals: {
      opening: centsToNumber(t.openingCents),
      adjustments: centsToNumber(t.adjustmentsCents),
      settledIn: centsToNumber(t.settledInCents),
      settledOut: centsToNumber(t.settledOutCents),
      fees: centsToNumber(t.feesCents),
    },
    invariantHolds: invariantHolds(a),
    createdAt: a.createdAt,
    ...(a.mercadoPago !== undefined ? { mercadoPago: { accessToken: a.mercadoPago.accessToken, publicKey: a.mercadoPago.publicKey, userId: a.mercadoPago.userId, webhookSecret: a.mercadoPago.webhookSecret, webhookUrl: a.mercadoPago.webhookUrl ?? null } } : {}),
  }
}

/** POST /__sandbox/pix/pay and /pix/incoming: the payment received, as the control plane shows it. */
export function receivedView (tx: Transaction) {
  const d = chargeData(tx)
  return {
    transactionId: tx.id,
    endToEndId: tx.endToEndId!,
    accountId: tx.accountId,
    kind: tx.kind as 'CASH_IN',
    status: tx.status,
    amount: centsToNumber(d.received?.amountCents ?? tx.amountCents),
    txid: d.txid,
    errorCode: tx.errorCode ?? null,
  }
}

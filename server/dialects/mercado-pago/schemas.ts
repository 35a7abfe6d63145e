import { Type } from '@sinclair/typebox'

/** The control plane's list of an account's Mercado Pago payments (GET /__sandbox/mercado-pago/payments). */
export const SandboxMercadoPagoPaymentsQuery = Type.Object({
  accountId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'the account whose payments are listed' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'at most this many payments' })),
  cursor: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the nextCursor of the page before (with the same accountId): the payments made before those it showed' })),
})

export const SandboxMercadoPagoPaymentList = Type.Object({
  payments: Type.Array(Type.Object({ accountId: Type.Integer(), transactionId: Type.String() }, { additionalProperties: true, description: 'As GET /v1/payments/{id} shows it (docs/mercado-pago.md), with its account and its transaction' }), { description: 'the last made first' }),
  nextCursor: Type.Optional(Type.Integer({ description: 'present while older payments remain: the cursor of the next page' })),
})

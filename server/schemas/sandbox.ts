import { Type } from '@sinclair/typebox'
import { StringEnum } from './common.js'

export const ProviderGroupSchema = StringEnum(['A', 'B', 'C', 'D', 'E'] as const, { description: 'Settlement provider group (spec 2.4)' })
export const SplitFrequencySchema = StringEnum(['IMMEDIATE', 'HOURLY', 'DAILY'] as const, { description: 'When non-immediate splits are paid out' })

const Brl = (description: string) => Type.Number({ minimum: 0, maximum: 1e12, description })

export const Limits = Type.Object({
  perTransaction: Brl('largest single pay-out, BRL'),
  daily: Brl('sum of pay-outs per day (America/Sao_Paulo), BRL'),
  nightly: Brl('largest single pay-out from 20:00 to 06:00 (America/Sao_Paulo), BRL'),
})

export const AccountSettingsBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  document: Type.Optional(Type.String({ pattern: '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$', description: 'CPF or CNPJ of the holder; generated when absent' })),
  balance: Type.Optional(Brl('opening available balance, BRL')),
  providerGroup: Type.Optional(ProviderGroupSchema),
  documentCheck: Type.Optional(Type.Boolean({ description: 'group B/D: the provider compares details.document with the key holder' })),
  fee: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6, description: 'BRL charged per cash-out' })),
  limits: Type.Optional(Type.Partial(Limits)),
  cashInMinExpirationSeconds: Type.Optional(Type.Integer({ minimum: 30, maximum: 604800 })),
  splitFrequency: Type.Optional(SplitFrequencySchema),
})

export const AccountView = Type.Object({
  accountId: Type.Integer(),
  name: Type.String(),
  document: Type.String(),
  ispb: Type.String(),
  bankName: Type.String(),
  clientId: Type.String(),
  clientSecret: Type.String(),
  certificate: Type.String({ description: 'PEM client certificate linked to the account' }),
  certificateFingerprints: Type.Array(Type.String()),
  providerGroup: ProviderGroupSchema,
  documentCheck: Type.Boolean(),
  fee: Type.Number(),
  limits: Limits,
  cashInMinExpirationSeconds: Type.Integer(),
  splitFrequency: SplitFrequencySchema,
  balance: Type.Object({ available: Type.Number(), blocked: Type.Number(), gross: Type.Number() }),
  totals: Type.Object({
    opening: Type.Number(),
    adjustments: Type.Number(),
    settledIn: Type.Number(),
    settledOut: Type.Number(),
    fees: Type.Number(),
  }),
  invariantHolds: Type.Boolean({ description: 'available + blocked = opening + adjustments + settledIn - settledOut - fees, both >= 0' }),
  createdAt: Type.String({ format: 'date-time' }),
})

export const CreatedAccountView = Type.Object({
  ...AccountView.properties,
  privateKey: Type.String({ description: 'PEM private key of the certificate; shown only here, once' }),
})

import { Type, type Static } from '@sinclair/typebox'
import { OAUTH_SCOPES } from '../../domain/scopes.js'
import { TOTAL_LIMIT_CENTS } from '../../domain/money.js'
import { Instant, Int, Id, Cents, Holding, Text, Open, OneOf } from './schema.js'

/** An account of the sandbox: its credentials, provider settings, limits, balance and running totals. */

export const PROVIDER_GROUPS = ['A', 'B', 'C', 'D', 'E'] as const
export type ProviderGroup = typeof PROVIDER_GROUPS[number]
export const SPLIT_FREQUENCIES = ['IMMEDIATE', 'HOURLY', 'DAILY'] as const
export type SplitFrequency = typeof SPLIT_FREQUENCIES[number]

const AccountLimitsSchema = Open({
  /** Largest single pay-out. */
  perTransactionCents: Holding,
  /** Sum of pay-outs per calendar day in America/Sao_Paulo. */
  dailyCents: Holding,
  /** Largest single pay-out between 20:00 and 06:00 in America/Sao_Paulo. */
  nightlyCents: Holding,
})
export type AccountLimits = Static<typeof AccountLimitsSchema>

const MercadoPagoCredentialsSchema = Open({
  accessToken: Text,
  publicKey: Text,
  userId: Id,
  webhookSecret: Text,
  webhookUrl: Type.Optional(Text),
})
export type MercadoPagoCredentials = Static<typeof MercadoPagoCredentialsSchema>

export const AccountSchema = Open({
  id: Id,
  name: Text,
  /** CNPJ of the account holder. */
  document: Text,
  ispb: Text,
  bankName: Text,
  clientId: Text,
  clientSecret: Text,
  /** SHA-256 fingerprints (upper-case hex with colons, as node:crypto prints them) linked to the account. */
  certificateFingerprints: Type.Array(Text),
  certificatePem: Text,
  providerGroup: OneOf(PROVIDER_GROUPS),
  /** Whether the provider compares details.document with the key holder (groups B and D only). */
  documentCheck: Type.Boolean(),
  feeCents: Cents,
  limits: AccountLimitsSchema,
  /** The provider's minimum cash-in expiration, in seconds (docs/gateway.md §2.6 "some providers require a higher minimum"). */
  cashInMinExpirationSeconds: Int({ minimum: 0 }),
  splitFrequency: OneOf(SPLIT_FREQUENCIES),
  /**
   * Efí's homologação (docs/efi.md, Homologação): its pay-outs follow Efí's test rules (by amount, and
   * to its test key only). Absent: an ordinary account, under the sandbox's own rules.
   */
  efiHomologacao: Type.Optional(Type.Boolean()),
  /**
   * Whether configuring an API Pix webhook with an https URL checks the receiver's mutual TLS as Efí
   * does (docs/webhooks.md, mutual TLS). Absent: on (as in documents written before it).
   */
  webhookMtlsCheck: Type.Optional(Type.Boolean()),
  balance: Open({ availableCents: Holding, blockedCents: Holding }),
  /**
   * Running totals that let anyone check the ledger invariant (docs/assumptions.md, Balances):
   * available + blocked = opening + adjustments + settledIn - settledOut - fees.
   */
  totals: Open({
    openingCents: Holding,
    adjustmentsCents: Int({ minimum: -TOTAL_LIMIT_CENTS, maximum: TOTAL_LIMIT_CENTS }),
    settledInCents: Holding,
    settledOutCents: Holding,
    feesCents: Holding,
  }),
  createdAt: Instant,
  /**
   * Which life of the account this is: a new value whenever the account is created, reset on its own,
   * recreated by a full reset or brought in by a snapshot import, and kept across a restart with --data.
   * A token names the incarnation it was issued for (server/auth/tokens.ts), so it never acts for the
   * account that took the id (or the credentials) after its own ended. Absent in documents written
   * before it existed: that life lasts until the account is next replaced.
   */
  incarnation: Type.Optional(Text),
  /**
   * The OAuth scopes the account is granted (API Pix's, docs/api-pix.md, and Efí's, docs/efi.md), as its creation set them;
   * absent: every one (an account created without a list, or in a document written before scopes).
   */
  scopes: Type.Optional(Type.Array(OneOf(OAUTH_SCOPES))),
  /**
   * The account's credentials at Mercado Pago (docs/mercado-pago.md): its access token (found by
   * `accountByAccessToken`, unique in the sandbox), public key, user id (the collector) and the secret
   * its notifications are signed with, and the webhook URL of its "Your integrations" setting. Absent
   * in documents written before them: such an account has no Mercado Pago credentials.
   */
  mercadoPago: Type.Optional(MercadoPagoCredentialsSchema),
})
export type AccountRecord = Static<typeof AccountSchema>

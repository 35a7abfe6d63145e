import { Type } from '@sinclair/typebox'
import { RecordId, StringEnum } from './common.js'
import { OAUTH_SCOPES } from '../domain/scopes.js'
import { STATE_FORMAT, STATE_FORMAT_VERSION } from '../store/state.js'
import { ENDPOINTS } from '../../scenarios/types.js'
import type { ScenarioName } from '../../scenarios/catalogue.js'

const OAuthScopes = (description: string) => Type.Array(StringEnum(OAUTH_SCOPES), { maxItems: 100, description })

export const ProviderGroupSchema = StringEnum(['A', 'B', 'C', 'D', 'E'] as const, { description: 'Settlement provider group (spec 2.4)' })
export const SplitFrequencySchema = StringEnum(['IMMEDIATE', 'HOURLY', 'DAILY'] as const, { description: 'When non-immediate splits are paid out' })

const Brl = (description: string) => Type.Number({ minimum: 0, maximum: 1e12, description })

export const Limits = Type.Object({
  perTransaction: Brl('largest single pay-out, BRL'),
  daily: Brl('sum of pay-outs per day (America/Sao_Paulo), BRL'),
  nightly: Brl('largest single pay-out from 20:00 to 06:00 (America/Sao_Paulo), BRL'),
})

const WebhookMtlsCheck = Type.Boolean({ description: 'Whether configuring an API Pix webhook (PUT /webhook/{chave}, /webhookrec, /webhookcobr) with an https URL checks its receiver\'s mutual TLS as Efí does (docs/webhooks.md, mutual TLS); default true. false: the URL is kept unchecked (its callbacks still present the sandbox\'s client certificate). --webhook-mtls-check disabled turns it off for every account' })

/** PATCH /__sandbox/accounts/{id}: the settings that may change after the account is created. */
export const AccountChangeBody = Type.Object({
  webhookMtlsCheck: Type.Optional(WebhookMtlsCheck),
}, { additionalProperties: false, minProperties: 1 })

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
  efiHomologacao: Type.Optional(Type.Boolean({ description: 'Efí\'s homologação profile (docs/efi.md): its pay-outs of up to R$ 10.00 are confirmed by webhook, R$ 10.01 to 20.00 rejected by webhook, above R$ 20.00 refused on the request; by key only to efipay@sejaefi.com.br. Default false: the sandbox\'s own rules' })),
  webhookMtlsCheck: Type.Optional(WebhookMtlsCheck),
  scopes: Type.Optional(OAuthScopes('the OAuth scopes granted to the account: BACEN\'s API Pix (docs/api-pix.md) and Efí\'s own routes (docs/efi.md); every one when absent')),
  mercadoPago: Type.Optional(Type.Object({
    accessToken: Type.Optional(Type.String({ minLength: 8, maxLength: 200, description: 'TEST-... or APP_USR-...; unique in the sandbox' })),
    publicKey: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
    userId: Type.Optional(Type.Integer({ minimum: 1, maximum: 9_999_999_999 })),
    webhookSecret: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
  }, { additionalProperties: false, description: 'Mercado Pago credentials (docs/mercado-pago.md); each generated when absent' })),
})

/** An account's Mercado Pago credentials (docs/mercado-pago.md); absent for an account of a data file written before them. */
export const MercadoPagoCredentialsView = Type.Object({
  accessToken: Type.String({ description: 'Authorization: Bearer <accessToken> on /v1/payments' }),
  publicKey: Type.String(),
  userId: Type.Integer({ description: 'the collector_id of its payments' }),
  webhookSecret: Type.String({ description: 'the key of the x-signature HMAC of its notifications' }),
  webhookUrl: Type.Union([Type.String(), Type.Null()], { description: 'the account-level notification URL ("Your integrations"); null: none' }),
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
  efiHomologacao: Type.Boolean({ description: 'Efí\'s homologação profile (docs/efi.md)' }),
  webhookMtlsCheck: WebhookMtlsCheck,
  accountNumber: Type.String({ description: 'The account number another account names it by (Efí\'s split favorecido, a payment\'s counterpart)' }),
  scopes: OAuthScopes('the OAuth scopes granted to the account: API Pix\'s and Efí\'s'),
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
  mercadoPago: Type.Optional(MercadoPagoCredentialsView),
})

export const CreatedAccountView = Type.Object({
  ...AccountView.properties,
  privateKey: Type.String({ description: 'PEM private key of the certificate; shown only here, once' }),
})

/** `:id` of a record numbered by the sandbox (accounts, webhooks, MED, armed scenarios). */
export const NumericIdParams = Type.Object({ id: RecordId() })

/** `?accountId=`: one account's records, or everyone's when absent. */
export const AccountFilterQuery = Type.Object({ accountId: Type.Optional(RecordId()) })

/** The query of a control-plane list paged the last made first (`RecordLists.newestFirst`): of one account or every, `limit` at a time, from a cursor. */
export const NewestFirstQuery = (what: string) => Type.Object({
  accountId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `only this account's ${what}` })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: `at most this many ${what}` })),
  cursor: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: `the nextCursor of the page before (with the same accountId): the ${what} made before those it showed` })),
})

/** A page of such a list: its `nextCursor` while older ones remain. */
export const NextCursor = (what: string) => Type.Optional(Type.Integer({ description: `present while older ${what} remain: the cursor of the next page` }))

export const AccountList = Type.Object({ accounts: Type.Array(AccountView) })

export const BalanceChangeBody = Type.Object({
  set: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
  credit: Type.Optional(Type.Number({ minimum: -1e12, maximum: 1e12 })),
})

// ---- system: health, reset, clock, snapshot --------------------------------------------------

export const HealthView = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  seed: Type.Optional(Type.String({ description: 'Only for whoever may use the control plane (with SANDBOX_ADMIN_TOKEN set, only with the admin token)' })),
  now: Type.String({ format: 'date-time' }),
})
/** 503: still starting, or degraded (the data file cannot be written; changes are refused until a write succeeds). */
export const HealthUnavailable = Type.Union([
  Type.Object({ status: Type.Literal('starting') }),
  Type.Object({
    status: Type.Literal('degraded'),
    reason: Type.String({ description: 'Why the last write failed; changes are refused (503) until a write succeeds again' }),
    since: Type.String({ format: 'date-time' }),
    version: Type.String(),
    seed: Type.Optional(Type.String()),
    now: Type.String({ format: 'date-time' }),
  }),
])

export const ResetBody = Type.Object({
  accountId: Type.Optional(RecordId({ description: 'Reset this account only; the rest of the sandbox, its clock included, stays as it is' })),
  clockStart: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'A full reset only: start the clock at this ISO 8601 instant (with its offset, within sandbox time), earlier than now if need be, instead of at --clock-start. For this reset alone; the next one goes back to the settings',
  })),
  clock: Type.Optional(StringEnum(['running', 'frozen'] as const, { description: 'A full reset only: start the clock running or frozen instead of as --clock says. For this reset alone' })),
})
export const ResetView = Type.Object({ reset: Type.Union([Type.Literal('all'), Type.Integer()]) })

export const ClockView = Type.Object({
  now: Type.String({ format: 'date-time' }),
  frozen: Type.Boolean(),
  offsetMs: Type.Number({ description: 'sandbox time minus wall time' }),
  pendingJobs: Type.Integer({ description: 'timed effects waiting on the clock' }),
  nextJobAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})

export const ClockAdvanceBody = Type.Object({ ms: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86_400_000 }) })
export const ClockSetBody = Type.Object({ now: Type.String({ format: 'date-time' }) })

export const SnapshotView = Type.Object({ format: Type.Literal(STATE_FORMAT), formatVersion: Type.Literal(STATE_FORMAT_VERSION) }, { additionalProperties: true })
/** Checked whole by the store's document reader (marker, every record, references), not by this schema. */
export const SnapshotBody = Type.Object({}, { additionalProperties: true, description: 'A document exported by GET /__sandbox/snapshot' })
export const SnapshotImported = Type.Object({ accounts: Type.Integer(), transactions: Type.Integer() })

// ---- scenarios ----------------------------------------------------------------------------------

export const ScenarioEndpointSchema = StringEnum(ENDPOINTS)

/**
 * What X-Sandbox-Scenario (and an armed scenario) names, as a type: a scenario of the catalogue, alone or
 * with its parameters (`SETTLEMENT_DELAY;ms=5000`), so the typed client refuses a misspelt name at compile
 * time. The wire takes any text and answers an unknown name 400 UNKNOWN_SCENARIO.
 */
export type ScenarioSpec = ScenarioName | `${ScenarioName};${string}`
export type { ScenarioName }

export const ScenarioCatalogue = Type.Object({
  scenarios: Type.Array(Type.Object({
    name: Type.String(),
    endpoints: Type.Array(Type.String()),
    timing: Type.String(),
    effect: Type.String(),
    params: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), required: Type.Boolean() })),
    dialects: Type.Optional(Type.Array(Type.String(), { description: 'present when only the operations of these dialects take it (at its endpoints)' })),
  })),
})

export const ArmedScenario = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  scenario: Type.String(),
  endpoint: Type.Union([ScenarioEndpointSchema, Type.Null()]),
  remaining: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String(),
})

export const ArmScenarioBody = Type.Object({
  accountId: RecordId(),
  scenario: Type.String({ minLength: 1, maxLength: 500 }),
  endpoint: Type.Optional(ScenarioEndpointSchema),
  times: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
})

export const ArmedScenarioList = Type.Object({ armed: Type.Array(ArmedScenario) })

import type { Static, TSchema } from '@sinclair/typebox'
import type { TokenRequest, TokenResponse } from '../server/schemas/auth.js'
import type { CentralBankBalances, StandardBalance } from '../server/dialects/gateway/schemas/balance.js'
import type { SandboxError } from '../server/schemas/common.js'
import type { ExtendedError, SimpleError } from '../server/dialects/gateway/errors.js'
import type { ApiPixProblem, OAuthError } from '../server/dialects/api-pix/errors.js'
import type { SandboxMercadoPagoPaymentsQuery } from '../server/dialects/mercado-pago/schemas.js'
import type { CobList as CobListSchema, CobListQuery, PixList, PixListQuery } from '../server/schemas/central-bank.js'
import type {
  CashInBody, CashInResponse, CobBody, CobPatchBody, CobResponse, PixView, DevolucaoBody, DevolucaoView, MedListQuery, MedListResponse,
  MedOpenBody, MedTransitionBody, MedTransitionView, PixIncomingBody, PixPayBody, ReceivedPixView, RefundInBody, RefundInResponse,
  SandboxMedList, SandboxMedView,
} from '../server/schemas/payins.js'
import type {
  CashOutBody, DictTransferBody, DictTransferCreated, DirectoryEntryBody, DirectoryEntryView, DirectoryList, FailTransactionBody,
  PayoutCreated, QrCashOutBody, RefundReceivedBody, TransactionList, TransactionListQuery, TransactionView,
} from '../server/schemas/payouts.js'
import type {
  AccountChangeBody, AccountFilterQuery, AccountList, AccountSettingsBody, AccountView, ArmedScenario, ArmedScenarioList, ArmScenarioBody, BalanceChangeBody,
  ClockAdvanceBody, ClockSetBody, ClockView, CreatedAccountView, HealthView, ResetBody, ResetView,
  ScenarioCatalogue, ScenarioSpec, SnapshotBody, SnapshotImported, SnapshotView,
} from '../server/schemas/sandbox.js'
import type {
  DeliveryEventTypeSchema, DeliveryList, DeliveryListQuery, DeliveryOf, DeliveryWaitQuery, EventTypeSchema, PublicWebhookAnswer, PublicWebhookBody, PublicWebhookList,
  WebhookList, WebhookPatchBody, WebhookRegistrationBody, WebhookTestAnswer, WebhookTestBody, WebhookView,
} from '../server/schemas/webhooks.js'
import type { ClearedRequests, ClearRequestsQuery, RequestCount, RequestEntry, RequestList, RequestListQuery, RequestMatcher, Verified, VerifyBody } from '../server/schemas/journal.js'
import type { ReportProbeBody, ReportQuery, ReportView } from '../server/schemas/report.js'
import type { OAuthTokenBody, OAuthTokenResponse } from '../server/dialects/api-pix/schemas/oauth.js'
import type { ApiPixCob as ApiPixCobSchema, ApiPixCobBody, ApiPixCobList as ApiPixCobListSchema, ApiPixCobListQuery, ApiPixCobPatchBody } from '../server/dialects/api-pix/schemas/cob.js'
import type { LocRecList, LocRecListQuery, LocRecView, RecCompleta, RecGerada, RecList, RecListQuery, SolicRecView } from '../server/dialects/api-pix/schemas/rec.js'
import type { LocBody, LocList, LocListQuery, LocView, SandboxLocList, SandboxLocListQuery } from '../server/dialects/api-pix/schemas/loc.js'
import type { ApiPixDevolucao as ApiPixDevolucaoSchema, ApiPixDevolucaoBody, ApiPixPix as ApiPixPixSchema, ApiPixPixList as ApiPixPixListSchema, ApiPixPixListQuery } from '../server/dialects/api-pix/schemas/pix.js'
import type { AccountWebhookBody, AccountWebhookView, ApiPixWebhook as ApiPixWebhookSchema, ApiPixWebhookBody, ApiPixWebhookList as ApiPixWebhookListSchema, ApiPixWebhookListQuery, SandboxApiPixWebhookList, SandboxApiPixWebhookListQuery } from '../server/dialects/api-pix/schemas/webhook.js'
import type { ApiPixCobV as ApiPixCobVSchema, ApiPixCobVBody, ApiPixCobVList as ApiPixCobVListSchema, ApiPixCobVListQuery, ApiPixCobVPatchBody, SandboxCobVList, SandboxCobVListQuery } from '../server/dialects/api-pix/schemas/cobv.js'
import type { LoteCobVBody, LoteCobVList, LoteCobVListQuery, LoteCobVPatchBody, LoteCobVView, SandboxLoteCobVList, SandboxLoteCobVListQuery } from '../server/dialects/api-pix/schemas/lotecobv.js'
import type {
  AccountConfig, DefesaBody, SplitCharge, SplitConfigBody, SplitConfigView, ReceiptQuery, ReportRequestBody, ReportStatus, ResendBody, EvpCreated, InfracoesList, InfracoesQuery, EvpList, KeyBuckets, LocQrCode, QrCodeDetail, QrCodeDetailBody, PixQrCodePayBody, PixSendBody, PixSent, PixSentDetail, PixSentList, PixSentListQuery, Saldo,
} from '../server/dialects/efi/schemas.js'
import type { EfiError } from '../server/dialects/efi/errors.js'
import type {
  CobRBody, CobRList, CobRListQuery, CobRPatchBody, CobRSummaryView, CobRView, NextDebitBody, NextDebitView, NextDueView, SandboxRecurrenceListQuery,
} from '../server/dialects/api-pix/schemas/cobr.js'

/**
 * Every operation of the sandbox's API, by its OpenAPI operationId: method, path and how it
 * authenticates (test/flows/client.test.ts checks this table against openapi/openapi.json both ways).
 * The types below come from the server's own TypeBox schemas, imported as types only, so the client
 * ships no schema code and its types cannot drift from what the server validates and answers.
 */
export const operations = {
  createToken: ['POST', '/api/auth/token'],
  getBalance: ['GET', '/balance'],
  getApiBalance: ['GET', '/api/balance'],
  cashOut: ['POST', '/api/pix/cash-out'],
  cashOutQrCode: ['POST', '/api/pix/cash-out-qrcode'],
  cashIn: ['POST', '/api/pix/cash-in'],
  refundIn: ['POST', '/api/pix/refund-in/{id}'],
  listMed: ['GET', '/api/med'],
  registerWebhook: ['POST', '/api/webhooks'],
  listWebhooks: ['GET', '/api/webhooks'],
  getBalances: ['GET', '/accounts/balances'],
  dictTransfer: ['POST', '/dict/pix'],
  createCob: ['PUT', '/cob/{txid}'],
  getCob: ['GET', '/cob/{txid}'],
  reviseCob: ['PATCH', '/cob/{txid}'],
  createCobWithGeneratedTxid: ['POST', '/cob'],
  listCobs: ['GET', '/cob'],
  createDevolucao: ['PUT', '/pix/{e2eid}/devolucao/{id}'],
  getDevolucao: ['GET', '/pix/{e2eid}/devolucao/{id}'],
  getReceivedPix: ['GET', '/pix/{e2eid}'],
  listReceivedPix: ['GET', '/pix'],
  sandboxHealth: ['GET', '/__sandbox/health'],
  sandboxReset: ['POST', '/__sandbox/reset'],
  sandboxGetClock: ['GET', '/__sandbox/clock'],
  sandboxAdvanceClock: ['POST', '/__sandbox/clock/advance'],
  sandboxSetClock: ['POST', '/__sandbox/clock/set'],
  sandboxAdvanceToNextDue: ['POST', '/__sandbox/clock/next-due'],
  sandboxForceNextDebit: ['POST', '/__sandbox/accounts/{id}/cobr/{txid}/next-debit'],
  sandboxFreezeClock: ['POST', '/__sandbox/clock/freeze'],
  sandboxResumeClock: ['POST', '/__sandbox/clock/resume'],
  sandboxExportSnapshot: ['GET', '/__sandbox/snapshot'],
  sandboxImportSnapshot: ['PUT', '/__sandbox/snapshot'],
  sandboxListRequests: ['GET', '/__sandbox/requests'],
  sandboxGetRequest: ['GET', '/__sandbox/requests/{id}'],
  sandboxCountRequests: ['POST', '/__sandbox/requests/count'],
  sandboxVerifyRequests: ['POST', '/__sandbox/requests/verify'],
  sandboxClearRequests: ['DELETE', '/__sandbox/requests'],
  sandboxCreateAccount: ['POST', '/__sandbox/accounts'],
  sandboxListAccounts: ['GET', '/__sandbox/accounts'],
  sandboxGetAccount: ['GET', '/__sandbox/accounts/{id}'],
  sandboxChangeBalance: ['POST', '/__sandbox/accounts/{id}/balance'],
  sandboxChangeAccount: ['PATCH', '/__sandbox/accounts/{id}'],
  sandboxIssueToken: ['POST', '/__sandbox/accounts/{id}/token'],
  sandboxListScenarios: ['GET', '/__sandbox/scenarios'],
  sandboxArmScenario: ['POST', '/__sandbox/scenarios/arm'],
  sandboxListArmedScenarios: ['GET', '/__sandbox/scenarios/armed'],
  sandboxDisarmScenario: ['DELETE', '/__sandbox/scenarios/armed/{id}'],
  sandboxRegisterWebhook: ['POST', '/__sandbox/webhooks'],
  sandboxListWebhooks: ['GET', '/__sandbox/webhooks'],
  sandboxUpdateWebhook: ['PATCH', '/__sandbox/webhooks/{id}'],
  sandboxDeleteWebhook: ['DELETE', '/__sandbox/webhooks/{id}'],
  sandboxTestWebhook: ['POST', '/__sandbox/webhooks/test'],
  sandboxListDeliveries: ['GET', '/__sandbox/webhooks/deliveries'],
  sandboxWaitForDelivery: ['GET', '/__sandbox/webhooks/deliveries/wait'],
  sandboxGetDelivery: ['GET', '/__sandbox/webhooks/deliveries/{id}'],
  sandboxRedeliver: ['POST', '/__sandbox/webhooks/deliveries/{id}/redeliver'],
  sandboxWebhookCa: ['GET', '/__sandbox/webhooks/ca.pem'],
  sandboxListTransactions: ['GET', '/__sandbox/transactions'],
  sandboxGetTransaction: ['GET', '/__sandbox/transactions/{id}'],
  sandboxSettleTransaction: ['POST', '/__sandbox/transactions/{id}/settle'],
  sandboxRefundReceived: ['POST', '/__sandbox/transactions/{id}/refund-received'],
  sandboxFailTransaction: ['POST', '/__sandbox/transactions/{id}/fail'],
  sandboxListDirectory: ['GET', '/__sandbox/directory'],
  sandboxGetDirectoryEntry: ['GET', '/__sandbox/directory/{key}'],
  sandboxPutDirectoryEntry: ['PUT', '/__sandbox/directory/{key}'],
  sandboxDeleteDirectoryEntry: ['DELETE', '/__sandbox/directory/{key}'],
  sandboxPay: ['POST', '/__sandbox/pix/pay'],
  sandboxReceivePix: ['POST', '/__sandbox/pix/incoming'],
  sandboxOpenMed: ['POST', '/__sandbox/med'],
  sandboxListMed: ['GET', '/__sandbox/med'],
  sandboxGetMed: ['GET', '/__sandbox/med/{id}'],
  sandboxTransitionMed: ['POST', '/__sandbox/med/{id}/transition'],
  sandboxReport: ['GET', '/__sandbox/report'],
  sandboxReportProbe: ['POST', '/__sandbox/report/probe'],
  sandboxListLocations: ['GET', '/__sandbox/locations'],
  sandboxListCobVs: ['GET', '/__sandbox/cobvs'],
  sandboxListCobVBatches: ['GET', '/__sandbox/cobv-batches'],
  sandboxListApiPixWebhooks: ['GET', '/__sandbox/api-pix-webhooks'],
  // BACEN's API Pix (docs/api-pix.md): its token at the root, the rest under the base path (/v2 here; ClientOptions.apiPixBasePath).
  apiPixToken: ['POST', '/oauth/token'],
  apiPixCreateCob: ['PUT', '/v2/cob/{txid}'],
  apiPixCreateCobWithGeneratedTxid: ['POST', '/v2/cob'],
  apiPixReviseCob: ['PATCH', '/v2/cob/{txid}'],
  apiPixGetCob: ['GET', '/v2/cob/{txid}'],
  apiPixListCobs: ['GET', '/v2/cob'],
  apiPixCreateLoc: ['POST', '/v2/loc'],
  apiPixGetLoc: ['GET', '/v2/loc/{id}'],
  apiPixListLocs: ['GET', '/v2/loc'],
  apiPixUnbindLoc: ['DELETE', '/v2/loc/{id}/txid'],
  apiPixPayload: ['GET', '/qr/v2/{token}'],
  apiPixJwks: ['GET', '/.well-known/jwks.json'],
  // Pix Automático (docs/api-pix.md, Pix Automático), and the payer's side on the control plane.
  apiPixCreateRec: ['POST', '/v2/rec'],
  apiPixGetRec: ['GET', '/v2/rec/{idRec}'],
  apiPixReviseRec: ['PATCH', '/v2/rec/{idRec}'],
  apiPixListRecs: ['GET', '/v2/rec'],
  apiPixCreateSolicRec: ['POST', '/v2/solicrec'],
  apiPixGetSolicRec: ['GET', '/v2/solicrec/{idSolicRec}'],
  apiPixReviseSolicRec: ['PATCH', '/v2/solicrec/{idSolicRec}'],
  apiPixCreateLocRec: ['POST', '/v2/locrec'],
  apiPixGetLocRec: ['GET', '/v2/locrec/{id}'],
  apiPixListLocRecs: ['GET', '/v2/locrec'],
  apiPixUnbindLocRec: ['DELETE', '/v2/locrec/{id}/idRec'],
  apiPixRecPayload: ['GET', '/qr/v2/rec/{token}'],
  apiPixPutWebhookRec: ['PUT', '/v2/webhookrec'],
  apiPixGetWebhookRec: ['GET', '/v2/webhookrec'],
  apiPixDeleteWebhookRec: ['DELETE', '/v2/webhookrec'],
  sandboxListRecurrences: ['GET', '/__sandbox/recurrences'],
  sandboxGetRecurrence: ['GET', '/__sandbox/recurrences/{idRec}'],
  sandboxRecurrenceApprove: ['POST', '/__sandbox/recurrences/{idRec}/approve'],
  sandboxRecurrenceReject: ['POST', '/__sandbox/recurrences/{idRec}/reject'],
  sandboxRecurrenceExpire: ['POST', '/__sandbox/recurrences/{idRec}/expire'],
  sandboxRecurrenceCancel: ['POST', '/__sandbox/recurrences/{idRec}/cancel'],
  sandboxRecurrenceStaticCode: ['POST', '/__sandbox/recurrences/{idRec}/static-code'],
  sandboxSetPayerBehaviour: ['PUT', '/__sandbox/payer-behaviours'],
  sandboxListPayerBehaviours: ['GET', '/__sandbox/payer-behaviours'],
  sandboxDeletePayerBehaviour: ['DELETE', '/__sandbox/payer-behaviours/{id}'],
  apiPixGetPix: ['GET', '/v2/pix/{e2eid}'],
  apiPixListPix: ['GET', '/v2/pix'],
  apiPixCreateDevolucao: ['PUT', '/v2/pix/{e2eid}/devolucao/{id}'],
  apiPixGetDevolucao: ['GET', '/v2/pix/{e2eid}/devolucao/{id}'],
  apiPixPutWebhook: ['PUT', '/v2/webhook/{chave}'],
  apiPixGetWebhook: ['GET', '/v2/webhook/{chave}'],
  apiPixDeleteWebhook: ['DELETE', '/v2/webhook/{chave}'],
  apiPixListWebhooks: ['GET', '/v2/webhook'],
  apiPixCreateCobV: ['PUT', '/v2/cobv/{txid}'],
  apiPixReviseCobV: ['PATCH', '/v2/cobv/{txid}'],
  apiPixGetCobV: ['GET', '/v2/cobv/{txid}'],
  apiPixListCobVs: ['GET', '/v2/cobv'],
  apiPixCobVPayload: ['GET', '/qr/v2/cobv/{token}'],
  apiPixPutLoteCobV: ['PUT', '/v2/lotecobv/{id}'],
  // Mercado Pago's payments API for Pix (docs/mercado-pago.md): its own SDK is the client; listed so the table is whole.
  mercadoPagoCreatePayment: ['POST', '/v1/payments'],
  sandboxSetMercadoPagoWebhook: ['PUT', '/__sandbox/accounts/{id}/mercado-pago/webhook'],
  sandboxListMercadoPagoPayments: ['GET', '/__sandbox/mercado-pago/payments'],
  mercadoPagoSearchPayments: ['GET', '/v1/payments/search'],
  mercadoPagoGetPayment: ['GET', '/v1/payments/{id}'],
  mercadoPagoUpdatePayment: ['PUT', '/v1/payments/{id}'],
  mercadoPagoCreateRefund: ['POST', '/v1/payments/{id}/refunds'],
  mercadoPagoListRefunds: ['GET', '/v1/payments/{id}/refunds'],
  mercadoPagoGetRefund: ['GET', '/v1/payments/{id}/refunds/{refundId}'],
  mercadoPagoTicket: ['GET', '/mercadopago/payments/{id}/ticket'],
  apiPixReviseLoteCobV: ['PATCH', '/v2/lotecobv/{id}'],
  apiPixGetLoteCobV: ['GET', '/v2/lotecobv/{id}'],
  apiPixListLoteCobV: ['GET', '/v2/lotecobv'],
  // Pix Automático's recurring charges and their webhook.
  apiPixCreateCobR: ['PUT', '/v2/cobr/{txid}'],
  apiPixCreateCobRWithGeneratedTxid: ['POST', '/v2/cobr'],
  apiPixReviseCobR: ['PATCH', '/v2/cobr/{txid}'],
  apiPixGetCobR: ['GET', '/v2/cobr/{txid}'],
  apiPixListCobRs: ['GET', '/v2/cobr'],
  apiPixRetryCobR: ['POST', '/v2/cobr/{txid}/retentativa/{data}'],
  apiPixPutWebhookCobR: ['PUT', '/v2/webhookcobr'],
  apiPixGetWebhookCobR: ['GET', '/v2/webhookcobr'],
  apiPixDeleteWebhookCobR: ['DELETE', '/v2/webhookcobr'],
  // Efí's own routes beside API Pix (docs/efi.md).
  efiPixSend: ['PUT', '/v3/gn/pix/{idEnvio}'],
  efiPixSendLegacy: ['PUT', '/v2/gn/pix/{idEnvio}'],
  efiPixSendSameOwnership: ['PUT', '/v2/gn/pix/{idEnvio}/mesma-titularidade'],
  efiPixQrCodePay: ['PUT', '/v2/gn/pix/{idEnvio}/qrcode'],
  efiPixSentDetail: ['GET', '/v2/gn/pix/enviados/{e2eId}'],
  efiPixSentDetailByIdEnvio: ['GET', '/v2/gn/pix/enviados/id-envio/{idEnvio}'],
  efiPixSentList: ['GET', '/v2/gn/pix/enviados'],
  efiGetBalance: ['GET', '/v2/gn/saldo'],
  efiGetConfig: ['GET', '/v2/gn/config'],
  efiPutConfig: ['PUT', '/v2/gn/config'],
  efiCreateEvp: ['POST', '/v2/gn/evp'],
  efiListEvp: ['GET', '/v2/gn/evp'],
  efiDeleteEvp: ['DELETE', '/v2/gn/evp/{chave}'],
  efiKeyBuckets: ['GET', '/v2/gn/chaves/balde'],
  efiLocQrCode: ['GET', '/v2/loc/{id}/qrcode'],
  efiQrCodeDetail: ['POST', '/v2/gn/qrcodes/detalhar'],
  efiListInfracoes: ['GET', '/v2/gn/infracoes'],
  efiDefendInfracao: ['POST', '/v2/gn/infracoes/{idInfracao}/defesa'],
  efiResendWebhook: ['POST', '/v2/gn/webhook/reenviar'],
  efiGetReceipt: ['GET', '/v2/gn/pix/comprovantes'],
  efiRequestReport: ['POST', '/v2/gn/relatorios/extrato-conciliacao'],
  efiGetReport: ['GET', '/v2/gn/relatorios/{id}'],
  efiCreateSplitConfig: ['POST', '/v2/gn/split/config'],
  efiPutSplitConfig: ['PUT', '/v2/gn/split/config/{id}'],
  efiGetSplitConfig: ['GET', '/v2/gn/split/config/{id}'],
  efiSplitLinkCharge: ['PUT', '/v2/gn/split/cob/{txid}/vinculo/{splitConfigId}'],
  efiSplitUnlinkCharge: ['DELETE', '/v2/gn/split/cob/{txid}/vinculo'],
  efiSplitUnlinkChargeById: ['DELETE', '/v2/gn/split/cob/{txid}/vinculo/{splitConfigId}'],
  efiSplitDetailCharge: ['GET', '/v2/gn/split/cob/{txid}'],
  efiSplitLinkDueCharge: ['PUT', '/v2/gn/split/cobv/{txid}/vinculo/{splitConfigId}'],
  efiSplitUnlinkDueCharge: ['DELETE', '/v2/gn/split/cobv/{txid}/vinculo'],
  efiSplitUnlinkDueChargeById: ['DELETE', '/v2/gn/split/cobv/{txid}/vinculo/{splitConfigId}'],
  efiSplitDetailDueCharge: ['GET', '/v2/gn/split/cobv/{txid}'],
  efiSplitDevolucao: ['PUT', '/v2/gn/split/pix/{e2eid}/devolucao/{id}'],
} as const satisfies Record<string, readonly ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string]>

export type OperationId = keyof typeof operations

type S<T extends TSchema> = Static<T>

// ---- request and response types, named as integrators see them ---------------------------------

export type TokenCredentials = S<typeof TokenRequest>
export type AccessToken = S<typeof TokenResponse>
export type Balance = S<typeof StandardBalance>
export type Balances = S<typeof CentralBankBalances>
export type CashOutRequest = S<typeof CashOutBody>
export type CashOutQrCodeRequest = S<typeof QrCashOutBody>
export type PayoutAccepted = S<typeof PayoutCreated>
export type CashInRequest = S<typeof CashInBody>
export type CashIn = S<typeof CashInResponse>
export type RefundInRequest = S<typeof RefundInBody>
export type RefundIn = S<typeof RefundInResponse>
export type MedListFilter = S<typeof MedListQuery>
export type MedList = S<typeof MedListResponse>
export type WebhookRegistration = S<typeof PublicWebhookBody>
export type WebhookAnswer = S<typeof PublicWebhookAnswer>
export type PublicWebhooks = S<typeof PublicWebhookList>
export type DictTransferRequest = S<typeof DictTransferBody>
export type DictTransfer = S<typeof DictTransferCreated>
export type CobRequest = S<typeof CobBody>
export type CobPatch = S<typeof CobPatchBody>
export type Cob = S<typeof CobResponse>
export type CobListFilter = S<typeof CobListQuery>
export type CobList = S<typeof CobListSchema>
export type BacenPix = S<typeof PixView>
export type BacenPixFilter = S<typeof PixListQuery>
export type BacenPixList = S<typeof PixList>
export type DevolucaoRequest = S<typeof DevolucaoBody>
export type Devolucao = S<typeof DevolucaoView>

export type Health = S<typeof HealthView>
export type Reset = S<typeof ResetView>
export type Clock = S<typeof ClockView>
export type Snapshot = S<typeof SnapshotView>
export type SnapshotImport = S<typeof SnapshotBody>
export type SnapshotImportResult = S<typeof SnapshotImported>
export type RequestFilter = S<typeof RequestListQuery>
export type Requests = S<typeof RequestList>
export type JournalEntry = S<typeof RequestEntry>
export type RequestMatch = S<typeof RequestMatcher>
export type RequestCountResult = S<typeof RequestCount>
export type RequestVerification = S<typeof VerifyBody>
export type RequestsVerified = S<typeof Verified>
export type RequestsCleared = S<typeof ClearedRequests>
export type ClearRequestsFilter = S<typeof ClearRequestsQuery>
export type AccountSettings = S<typeof AccountSettingsBody>
export type Account = S<typeof AccountView>
export type CreatedAccount = S<typeof CreatedAccountView>
export type Accounts = S<typeof AccountList>
export type BalanceChange = S<typeof BalanceChangeBody>
export type AccountChange = S<typeof AccountChangeBody>
export type Scenarios = S<typeof ScenarioCatalogue>
/**
 * A scenario of the catalogue (`GET /__sandbox/scenarios`) by its name, and what X-Sandbox-Scenario takes
 * for one: the name alone or with its parameters (`SETTLEMENT_DELAY;ms=5000`). A name the catalogue does
 * not have does not compile; to send one anyway (to see UNKNOWN_SCENARIO), set the header yourself.
 */
export type { ScenarioName, ScenarioSpec } from '../server/schemas/sandbox.js'
export type ScenarioArming = Omit<S<typeof ArmScenarioBody>, 'scenario'> & { scenario: ScenarioSpec }
export type Armed = S<typeof ArmedScenario>
export type ArmedList = S<typeof ArmedScenarioList>
export type SandboxWebhookRegistration = S<typeof WebhookRegistrationBody>
export type Webhook = S<typeof WebhookView>
export type Webhooks = S<typeof WebhookList>
export type WebhookUpdate = S<typeof WebhookPatchBody>
export type WebhookTest = WithEventType<S<typeof WebhookTestBody>>
export type EventType = S<typeof EventTypeSchema>
/** What the delivery log holds: the event types a registration takes, and API Pix's `pix` callback to `{webhookUrl}/pix`. */
export type DeliveryEventType = S<typeof DeliveryEventTypeSchema>
/**
 * The event types of the PSPs' dialects the sandbox ships (Mercado Pago's notifications, Efí's sent
 * PIX), beyond the gateway's and API Pix's: the control plane takes each (its descriptor's
 * `deliveries`), a delivery of one has an untyped body. Listed here because the client carries no
 * server code; test/routes/delivery-event-types.test.ts holds it to the app's list, so a typo still
 * does not compile.
 */
export const DIALECT_EVENT_TYPES = ['mercado_pago_payment', 'efi_pix_enviado'] as const
export type DialectEventType = typeof DIALECT_EVENT_TYPES[number]
/** A control-plane body or query whose eventType may be a dialect's own. */
type WithEventType<T extends { eventType?: unknown }> = Omit<T, 'eventType'> & (undefined extends T['eventType'] ? { eventType?: DeliveryEventType | DialectEventType } : { eventType: DeliveryEventType | DialectEventType })
/**
 * A webhook delivery of the log, a union on `eventType` whose `body` is that event's payload:
 * `Delivery<'cash_in'>` has the V2 RECEIVE envelope as its body, `Delivery<'pix'>` API Pix's
 * `{ pix: [...] }`; `Delivery` is any of them, and checking `delivery.eventType` narrows it.
 */
export type Delivery<E extends DeliveryEventType | DialectEventType = DeliveryEventType> = DeliveryOf<E>
export type WebhookTestResult<E extends DeliveryEventType | DialectEventType = DeliveryEventType> = Omit<S<typeof WebhookTestAnswer>, 'deliveries'> & { deliveries: Array<Delivery<E>> }
export type DeliveryFilter = WithEventType<S<typeof DeliveryListQuery>>
export type Deliveries<E extends DeliveryEventType | DialectEventType = DeliveryEventType> = Omit<S<typeof DeliveryList>, 'deliveries'> & { deliveries: Array<Delivery<E>> }
export type DeliveryWait = WithEventType<S<typeof DeliveryWaitQuery>>
/** The payload of each event type, as the sandbox's schemas define it (`WebhookPayloads` maps one to the other). */
export type {
  CashOutNotification, MedEnvelope, PixCallback, ReceiveEnvelope, RefundInEnvelope, RefundOutEnvelope, TransferEnvelope, WebhookPayload, WebhookPayloads,
} from '../server/schemas/webhooks.js'
export type TransactionFilter = S<typeof TransactionListQuery>
export type Transaction = S<typeof TransactionView>
export type Transactions = S<typeof TransactionList>
export type AsyncErrorCode = S<typeof FailTransactionBody>['errorCode']
export type RefundReceived = S<typeof RefundReceivedBody>
export type DirectoryEntry = S<typeof DirectoryEntryView>
export type DirectoryEntryInput = S<typeof DirectoryEntryBody>
export type Directory = S<typeof DirectoryList>
export type PixPayment = S<typeof PixPayBody>
export type IncomingPix = S<typeof PixIncomingBody>
export type ReceivedPix = S<typeof ReceivedPixView>
export type MedOpening = S<typeof MedOpenBody>
export type MedTransition = S<typeof MedTransitionBody>
export type SandboxMed = S<typeof SandboxMedView>
export type SandboxMeds = S<typeof SandboxMedList>
export type MedTransitioned = S<typeof MedTransitionView>
export type AccountFilter = S<typeof AccountFilterQuery>
export type ClockAdvance = S<typeof ClockAdvanceBody>
export type ClockSet = S<typeof ClockSetBody>
/** Pix Automático on the virtual clock: the next debit of a recurring charge, and forcing what it comes to. */
export type NextDue = S<typeof NextDueView>
export type NextDebitRequest = S<typeof NextDebitBody>
export type NextDebit = S<typeof NextDebitView>
export type ResetRequest = S<typeof ResetBody>
export type ReportRequest = S<typeof ReportQuery>
export type IntegrationReport = S<typeof ReportView>
export type ReportCheck = IntegrationReport['checks'][number]
export type ReportProbe = WithEventType<S<typeof ReportProbeBody>>

/** The error bodies of the three families (docs/gateway.md §7; the control plane's adds `code`). */
export type ExtendedErrorBody = S<typeof ExtendedError>
export type SimpleErrorBody = S<typeof SimpleError>
export type SandboxErrorBody = S<typeof SandboxError>
export type ApiPixProblemBody = S<typeof ApiPixProblem>
export type OAuthErrorBody = S<typeof OAuthError>
export type EfiErrorBody = S<typeof EfiError>
export type ErrorBody = ExtendedErrorBody | SimpleErrorBody | SandboxErrorBody | ApiPixProblemBody | OAuthErrorBody | EfiErrorBody

export type ApiPixTokenRequest = S<typeof OAuthTokenBody>
export type ApiPixToken = S<typeof OAuthTokenResponse>
export type ApiPixCobRequest = S<typeof ApiPixCobBody>
export type ApiPixCobPatch = S<typeof ApiPixCobPatchBody>
export type ApiPixCob = S<typeof ApiPixCobSchema>
export type ApiPixCobFilter = S<typeof ApiPixCobListQuery>
export type ApiPixCobList = S<typeof ApiPixCobListSchema>
export type ApiPixLocRequest = S<typeof LocBody>
export type ApiPixLoc = S<typeof LocView>
export type ApiPixLocFilter = S<typeof LocListQuery>
export type ApiPixLocList = S<typeof LocList>
export type SandboxLocations = S<typeof SandboxLocList>
/** A page of the control plane's locations: of one account or every one, at most `limit`, before `cursor` (the `nextCursor` of the page before). */
export type LocationFilter = S<typeof SandboxLocListQuery>
export type SandboxCobVs = S<typeof SandboxCobVList>
/** A page of the control plane's cobvs: of one account or every one, at most `limit`, before `cursor` (the `nextCursor` of the page before). */
export type CobVFilter = S<typeof SandboxCobVListQuery>
export type SandboxCobVBatches = S<typeof SandboxLoteCobVList>
/** A page of the control plane's batches: of one account or every one, at most `limit`, before `cursor` (the `nextCursor` of the page before). */
export type CobVBatchFilter = S<typeof SandboxLoteCobVListQuery>
export type SandboxApiPixWebhooks = S<typeof SandboxApiPixWebhookList>
/** A page of the control plane's webhooks of API Pix: of one account or every one, at most `limit`, before `cursor` (the `nextCursor` of the page before). */
export type SandboxApiPixWebhookFilter = S<typeof SandboxApiPixWebhookListQuery>
export type ApiPixPix = S<typeof ApiPixPixSchema>
export type ApiPixPixFilter = S<typeof ApiPixPixListQuery>
export type ApiPixPixList = S<typeof ApiPixPixListSchema>
export type ApiPixDevolucaoRequest = S<typeof ApiPixDevolucaoBody>
export type ApiPixDevolucao = S<typeof ApiPixDevolucaoSchema>
export type ApiPixWebhookRequest = S<typeof ApiPixWebhookBody>
export type ApiPixWebhook = S<typeof ApiPixWebhookSchema>
export type ApiPixWebhookFilter = S<typeof ApiPixWebhookListQuery>
export type ApiPixWebhookList = S<typeof ApiPixWebhookListSchema>
export type ApiPixCobVRequest = S<typeof ApiPixCobVBody>
export type ApiPixCobVPatch = S<typeof ApiPixCobVPatchBody>
export type ApiPixCobV = S<typeof ApiPixCobVSchema>
export type ApiPixCobVFilter = S<typeof ApiPixCobVListQuery>
export type ApiPixCobVList = S<typeof ApiPixCobVListSchema>
export type ApiPixLoteCobVRequest = S<typeof LoteCobVBody>
export type ApiPixLoteCobVPatch = S<typeof LoteCobVPatchBody>
export type ApiPixLoteCobV = S<typeof LoteCobVView>
export type ApiPixLoteCobVFilter = S<typeof LoteCobVListQuery>
export type ApiPixLoteCobVList = S<typeof LoteCobVList>
export type ApiPixCobRRequest = S<typeof CobRBody>
export type ApiPixCobRPatch = S<typeof CobRPatchBody>
export type ApiPixCobR = S<typeof CobRView>
export type ApiPixCobRFilter = S<typeof CobRListQuery>
export type ApiPixCobRList = S<typeof CobRList>
export type ApiPixWebhookCobRRequest = S<ReturnType<typeof AccountWebhookBody>>
export type ApiPixWebhookCobR = S<typeof AccountWebhookView>
/** The key that signs payloads, as a JWK Set. */
export interface ApiPixJwks { keys: Array<{ kty: string, crv: string, x: string, y: string, kid: string, use: string, alg: string }> }

/** Pix Automático (docs/api-pix.md, Pix Automático). Request bodies are checked by the sandbox against API Pix's RecSolicitada, RecRevisada, SolicRecSolicitada. */
export type ApiPixRecRequest = Record<string, unknown>
export type ApiPixRec = S<typeof RecGerada>
export type ApiPixRecComplete = S<typeof RecCompleta>
export type ApiPixRecFilter = S<typeof RecListQuery>
export type ApiPixRecList = S<typeof RecList>
export type ApiPixSolicRec = S<typeof SolicRecView>
export type ApiPixLocRec = S<typeof LocRecView>
export type ApiPixLocRecFilter = S<typeof LocRecListQuery>
export type ApiPixLocRecList = S<typeof LocRecList>
export type ApiPixWebhookRec = S<typeof AccountWebhookView>
/** The payer's side on the control plane (docs/api-pix.md, "The payer's side"). */
export interface RecurrenceApproval {
  jornada?: 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4'
  pagador?: { ispbParticipante: string, cpf?: string, cnpj?: string }
  valorMaximo?: string
}
export interface RecurrenceRejection { codigo?: 'AP13' | 'AP14', by?: 'USUARIO_PAGADOR' | 'PSP_PAGADOR' }
export type SandboxRecurrence = ApiPixRecComplete & { accountId: number }
/** One recurrence as the control plane shows it: with its recurring charges, oldest first. */
export type SandboxRecurrenceWithCharges = SandboxRecurrence & { cobsr: ApiPixCobR[] }
/** A recurrence as the control plane lists it: with its recurring charges counted, in all and by status. */
export type SandboxRecurrenceSummary = SandboxRecurrence & { charges: S<typeof CobRSummaryView> }
/** A page of the control plane's recurrences: of one account or every one, at most `limit`, before `cursor` (the `nextCursor` of the page before). */
export type RecurrenceFilter = S<typeof SandboxRecurrenceListQuery>
/** A page of an account's Mercado Pago payments (GET /__sandbox/mercado-pago/payments). */
export type MercadoPagoPaymentFilter = S<typeof SandboxMercadoPagoPaymentsQuery>
export interface SandboxRecurrenceList { recurrences: SandboxRecurrenceSummary[], nextCursor?: number }
/** The static code of a recurrence's contract (journey 4): to `chave` (a key the account holds; its document when absent), of `valor` when given. */
export interface RecurrenceStaticCodeRequest { chave?: string, valor?: string }
export interface RecurrenceStaticCode { jornada: 'JORNADA_4', pixCopiaECola: string }
export interface PayerBehaviourInput {
  accountId: number
  document?: string
  authorization: 'APPROVE' | 'REJECT' | 'NO_ANSWER'
  rejectionCode?: 'AP13' | 'AP14'
  valorMaximo?: string
  debit?: 'PAGA' | 'REJEITADA_SALDO' | 'REJEITADA' | 'SEM_RESPOSTA'
}
export type PayerBehaviour = Omit<PayerBehaviourInput, 'debit'> & { id: number, debit: string, createdAt: string, updatedAt: string }

// ---- Efí's own routes (docs/efi.md) ----
export type EfiPixSendRequest = S<typeof PixSendBody>
export type EfiPixQrCodePayRequest = S<typeof PixQrCodePayBody>
export type EfiPixSent = S<typeof PixSent>
export type EfiPixSentDetail = S<typeof PixSentDetail>
export type EfiPixSentFilter = S<typeof PixSentListQuery>
export type EfiPixSentList = S<typeof PixSentList>
export type EfiBalance = S<typeof Saldo>
export type EfiAccountConfig = S<typeof AccountConfig>
export type EfiEvp = S<typeof EvpCreated>
export type EfiEvpList = S<typeof EvpList>
export type EfiKeyBuckets = S<typeof KeyBuckets>
export type EfiLocQrCode = S<typeof LocQrCode>
export type EfiQrCodeDetailRequest = S<typeof QrCodeDetailBody>
export type EfiQrCodeDetail = S<typeof QrCodeDetail>
export type EfiInfracoesFilter = S<typeof InfracoesQuery>
export type EfiInfracoes = S<typeof InfracoesList>
export type EfiDefesaRequest = S<typeof DefesaBody>
export type EfiResendRequest = S<typeof ResendBody>
export type EfiReceiptQuery = S<typeof ReceiptQuery>
export type EfiReportRequest = S<typeof ReportRequestBody>
export type EfiReportStatus = S<typeof ReportStatus>
export type EfiSplitConfigRequest = S<typeof SplitConfigBody>
export type EfiSplitConfig = S<typeof SplitConfigView>
export type EfiSplitCharge = S<typeof SplitCharge>

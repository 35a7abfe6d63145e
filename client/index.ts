import { operations, type OperationId } from './operations.js'
import type * as T from './operations.js'

export * from './operations.js'

/**
 * pix-sandbox/client: a typed client of the sandbox over `fetch`, for the gateway API (the standard
 * family at the root, the central-bank-compatible family under `centralBank`), BACEN's API Pix
 * (`apiPix`) and the control plane (`sandbox`). It runs wherever `fetch` does and imports nothing at run time: request and response
 * types come from the server's TypeBox schemas as types only.
 *
 * With credentials (clientId, clientSecret and the client certificate), it fetches an access token on
 * the first gateway call, renews it shortly before it expires, and once more when the gateway answers
 * 401 (a token expires by the sandbox clock, which a test may move 30 minutes in one call): a request
 * refused for its token did nothing, so sending it again is safe.
 */
export interface ClientOptions {
  /** Where the sandbox listens, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string
  clientId?: string
  clientSecret?: string
  /**
   * The account's client certificate, PEM (sent percent-encoded in X-SSL-Client-Cert). A sandbox that
   * serves HTTPS takes the certificate of the TLS handshake instead: give `fetch` a dispatcher that shows it.
   */
  certificate?: string
  /** An access token already issued; without credentials it is used until the gateway refuses it. */
  token?: string
  /** SANDBOX_ADMIN_TOKEN of the sandbox, sent on every control-plane call when set. */
  adminToken?: string
  /** Headers added to every request. */
  headers?: Record<string, string>
  /** A fetch of your own (a proxy, a TLS agent, a recorder); the global one otherwise. */
  fetch?: typeof fetch
  /** Renew the token this long before it expires; 60 s unless set. */
  renewBeforeMs?: number
  /** The base path API Pix is served under (the sandbox's --api-pix-base-path); `/v2` unless set. */
  apiPixBasePath?: string
}

/** Options of one call. */
export interface RequestOptions {
  /**
   * X-Sandbox-Scenario: one scenario of the catalogue, `NAME;ms=5000`, or several (sent comma-separated).
   * Typed from the catalogue, so a misspelt name does not compile; `headers: { 'x-sandbox-scenario': ... }`
   * sends any text, for a test of the sandbox's refusal of an unknown one.
   */
  scenario?: T.ScenarioSpec | T.ScenarioSpec[]
  headers?: Record<string, string>
  signal?: AbortSignal
}

/**
 * What the sandbox answered when it refused a call: the status and the family's error body
 * (`statusCode`, `code`, `message`; `errorCode` and `details` where the family has them; API Pix's
 * problem details, whose `code` is the error type, `CobNaoEncontrado`; its token's `error`).
 */
export class PixApiError extends Error {
  override readonly name = 'PixApiError'
  /** The business code (`PIX_INSUFFICIENT_BALANCE`, `WAIT_TIMEOUT`, ...), or `HTTP_ERROR`. */
  readonly code: string
  /** One entry per invalid field on a validation error, else the one message. */
  readonly messages: string[]

  /**
   * `refusal`: what the client itself reads as a refusal in an answer the sandbox gave as a success (a
   * disabled route's `success: false`): the code it goes by and what to do instead.
   */
  constructor (readonly statusCode: number, readonly body: T.ErrorBody, readonly operationId: OperationId, readonly method: string, readonly url: string, refusal?: { code: string, fix: string }) {
    const b = body as Partial<T.ExtendedErrorBody & T.SandboxErrorBody> & Partial<T.ApiPixProblemBody> & { error_description?: string }
    const problem = typeof b.type === 'string' ? b.type.slice(b.type.lastIndexOf('/') + 1) : undefined
    const oauth = b.error_description !== undefined || (b.error !== undefined && b.statusCode === undefined)
    const messages = Array.isArray(b.message)
      ? b.message
      : b.violacoes !== undefined && b.violacoes.length > 0
        ? b.violacoes.map(v => String(v.razao))
        : [String(b.message ?? b.detail ?? b.error_description ?? `HTTP ${statusCode}`)]
    super(`${method} ${url} answered ${statusCode}: ${messages.join('; ')}${refusal ? `. ${refusal.fix}` : ''}`)
    this.messages = messages
    this.code = refusal?.code ?? b.errorCode ?? b.code ?? problem ?? (oauth ? String(b.error) : 'HTTP_ERROR')
  }
}

interface Call {
  params?: Record<string, string | number>
  query?: object
  body?: unknown
  headers?: Record<string, string>
  options?: RequestOptions
}

type Auth = 'bearer' | 'certificate' | 'basic' | 'admin' | 'none'

function authOf (path: string): Auth {
  if (path.startsWith('/__sandbox')) return 'admin'
  if (path === '/oauth/token') return 'basic'
  // What a payer's PSP reads is open to anyone with the URL.
  if (path.startsWith('/qr/') || path.startsWith('/.well-known/')) return 'none'
  // Mercado Pago's routes take the account's own access token (MercadoPagoApi), its ticket pages none.
  if (path.startsWith('/v1/payments') || path.startsWith('/mercadopago/')) return 'none'
  return path === '/api/auth/token' ? 'certificate' : 'bearer'
}

/** The base path the operations table writes API Pix's paths under: the sandbox's default. */
const API_PIX_DEFAULT_BASE = '/v2'

export class PixClient {
  /** The central-bank-compatible family (no prefix, simple error shape). */
  readonly centralBank: CentralBankApi
  /** BACEN's API Pix (docs/api-pix.md): problem details on errors. */
  readonly apiPix: ApiPixApi
  /** Efí's own routes beside API Pix (docs/efi.md), with API Pix's OAuth token. */
  readonly efi: EfiApi
  /** The control plane, /__sandbox. */
  readonly sandbox: SandboxApi
  private token: { value: string, renewAt: number } | null
  private renewing: Promise<string> | null = null
  private readonly fetch: typeof fetch

  constructor (readonly options: ClientOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.token = options.token ? { value: options.token, renewAt: Infinity } : null
    this.centralBank = new CentralBankApi(this)
    this.apiPix = new ApiPixApi(this)
    this.efi = new EfiApi(this)
    this.sandbox = new SandboxApi(this)
  }

  // ---- the standard family (/api, extended error shape) -------------------------------------------

  private canIssueTokens (): boolean {
    const { clientId, clientSecret, certificate } = this.options
    return Boolean(clientId && clientSecret && certificate)
  }

  /** POST /api/auth/token with the client certificate and credentials; the client keeps the token. */
  async issueToken (): Promise<T.AccessToken> {
    const { clientId, clientSecret, certificate } = this.options
    if (!clientId || !clientSecret || !certificate) {
      throw new TypeError('pix-sandbox client: a token needs clientId, clientSecret and certificate (createClient options)')
    }
    const issued = await this.call<T.AccessToken>('createToken', { body: { clientId, clientSecret } satisfies T.TokenCredentials })
    const renewBefore = this.options.renewBeforeMs ?? 60_000
    this.token = { value: issued.access_token, renewAt: Date.now() + issued.expires_in * 1000 - renewBefore }
    return issued
  }

  /** The bearer token the next gateway call sends: the current one, or a new one when it is about to expire. */
  async accessToken (): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return this.token.value
    this.renewing ??= this.issueToken().then(t => t.access_token).finally(() => { this.renewing = null })
    return this.renewing
  }

  /** Mercado Pago's payments API (docs/mercado-pago.md) with an account's `mercadoPago.accessToken`; its own SDK is the usual client. */
  mercadoPago (accessToken: string): MercadoPagoApi { return new MercadoPagoApi(this, accessToken) }
  balance (options?: RequestOptions): Promise<T.Balance> { return this.call('getBalance', { options }) }
  cashOut (body: T.CashOutRequest, options?: RequestOptions): Promise<T.PayoutAccepted> { return this.call('cashOut', { body, options }) }
  cashOutQrCode (body: T.CashOutQrCodeRequest, options?: RequestOptions): Promise<T.PayoutAccepted> { return this.call('cashOutQrCode', { body, options }) }
  cashIn (body: T.CashInRequest, options?: RequestOptions): Promise<T.CashIn> { return this.call('cashIn', { body, options }) }
  /** `id`: the transactionId (or endToEndId) of the received payment. */
  refundIn (id: string, body: T.RefundInRequest, options?: RequestOptions): Promise<T.RefundIn> { return this.call('refundIn', { params: { id }, body, options }) }
  med (query: T.MedListFilter = {}, options?: RequestOptions): Promise<T.MedList> { return this.call('listMed', { query, options }) }
  /**
   * POST /api/webhooks. The real gateway has this route disabled (docs/gateway.md §4.1, endpoints 12 and
   * 13: webhooks are registered in its dashboard), and so does the sandbox unless it runs with
   * `--public-webhooks enabled`: its answer, 200 `{ success: false, message: 'Rota desativada' }`, registers
   * nothing, so this method throws a PixApiError with code `ROUTE_DISABLED` saying how to register instead
   * (`sandbox.registerWebhook`, the control plane, as the gateway's dashboard does). `call('registerWebhook', ...)`
   * gives the answer as it is, for a test of the disabled route itself.
   */
  async registerWebhook (body: T.WebhookRegistration, options?: RequestOptions): Promise<T.WebhookAnswer> {
    const answer = await this.call<T.WebhookAnswer>('registerWebhook', { body, options })
    if (answer.success) return answer
    throw new PixApiError(200, answer as unknown as T.ErrorBody, 'registerWebhook', 'POST', this.urlOf('registerWebhook'), {
      code: 'ROUTE_DISABLED',
      fix: 'POST /api/webhooks registers nothing: it is disabled, as on the real gateway, whose webhooks are registered in its dashboard. ' +
        'Register the URL on the control plane instead, client.sandbox.registerWebhook({ accountId, eventType, url }) (POST /__sandbox/webhooks), ' +
        'or start the sandbox with --public-webhooks enabled (SANDBOX_PUBLIC_WEBHOOKS=enabled) for the route\'s intended behaviour',
    })
  }

  /** GET /api/webhooks: disabled as POST is (an empty list, whatever is registered) unless the sandbox runs with `--public-webhooks enabled`; `sandbox.webhooks()` lists the registrations. */
  webhooks (options?: RequestOptions): Promise<T.PublicWebhooks> { return this.call('listWebhooks', { options }) }

  /** Any operation by its operationId; the typed methods are built on it. */
  async call<R> (operationId: OperationId, call: Call = {}): Promise<R> {
    const [method, operationPath] = operations[operationId]
    const auth = authOf(operationPath)
    const url = this.urlOf(operationId, call)

    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...call.headers, ...call.options?.headers }
    if (call.body !== undefined) headers['content-type'] = 'application/json'
    const scenario = call.options?.scenario
    if (scenario !== undefined) headers['x-sandbox-scenario'] = Array.isArray(scenario) ? scenario.join(',') : scenario
    if (auth === 'admin' && this.options.adminToken) headers['x-sandbox-admin-token'] = this.options.adminToken
    if ((auth === 'certificate' || auth === 'basic') && this.options.certificate) headers['x-ssl-client-cert'] = encodeURIComponent(this.options.certificate)
    if (auth === 'basic' && this.options.clientId && this.options.clientSecret) {
      headers.authorization = `Basic ${btoa(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`)}`
    }

    const send = async (): Promise<Response> => {
      if (auth === 'bearer') headers.authorization = `Bearer ${await this.accessToken()}`
      return this.fetch(url, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body), signal: call.options?.signal })
    }
    let res = await send()
    if (res.status === 401 && auth === 'bearer' && this.canIssueTokens()) {
      await res.body?.cancel()
      this.token = null
      res = await send()
    }
    // A receipt is a PDF: its bytes as they are.
    if (res.status < 400 && res.headers.get('content-type')?.startsWith('application/pdf') === true) return await res.arrayBuffer() as R
    const text = await res.text()
    // A report is a CSV: its text.
    if (res.status < 400 && res.headers.get('content-type')?.startsWith('text/csv') === true) return text as R
    // A payload location answers a JWS, a ticket page HTML, the webhooks' CA a PEM file: text, not JSON.
    const type = res.headers.get('content-type') ?? ''
    const isText = ['application/jose', 'text/html', 'application/x-pem-file'].some(t => type.startsWith(t))
    const body: unknown = text === '' ? undefined : isText ? text : parse(text)
    if (res.status >= 400) throw new PixApiError(res.status, (body ?? {}) as T.ErrorBody, operationId, method, url)
    return body as R
  }

  /** The URL of an operation: its path under the base URL (API Pix's under its base path), parameters and query filled in. */
  private urlOf (operationId: OperationId, call: Pick<Call, 'params' | 'query'> = {}): string {
    const operationPath = operations[operationId][1]
    const base = this.options.apiPixBasePath
    // Efí's /v3 is the base path's sibling (docs/efi.md).
    const template = base === undefined
      ? operationPath
      : operationPath.startsWith(`${API_PIX_DEFAULT_BASE}/`)
        ? base + operationPath.slice(API_PIX_DEFAULT_BASE.length)
        : operationPath.startsWith('/v3/gn/') ? base.replace(/\/[^/]+$/, '/v3') + operationPath.slice(3) : operationPath
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(call.params?.[name])))
    const query = new URLSearchParams()
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.append(k, String(v))
    const search = query.toString()
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}${search === '' ? '' : `?${search}`}`
  }
}

function parse (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return { message: text }
  }
}

/** Efí's own routes (docs/efi.md): its pay-outs and the reads of what was sent; errors in Efí's shapes. */
export class EfiApi {
  constructor (private readonly client: PixClient) {}

  /** PUT /v3/gn/pix/{idEnvio}: from a key of the account (with a webhook) to a key or account data; EM_PROCESSAMENTO. */
  pixSend (idEnvio: string, body: T.EfiPixSendRequest, options?: RequestOptions): Promise<T.EfiPixSent> { return this.client.call('efiPixSend', { params: { idEnvio }, body, options }) }
  /** PUT /v2/gn/pix/{idEnvio}: the same, as gn-api-sdk-node calls it. */
  pixSendV2 (idEnvio: string, body: T.EfiPixSendRequest, options?: RequestOptions): Promise<T.EfiPixSent> { return this.client.call('efiPixSendLegacy', { params: { idEnvio }, body, options }) }
  pixSendSameOwnership (idEnvio: string, body: T.EfiPixSendRequest, options?: RequestOptions): Promise<T.EfiPixSent> {
    return this.client.call('efiPixSendSameOwnership', { params: { idEnvio }, body, options })
  }

  /** PUT /v2/gn/pix/{idEnvio}/qrcode: pays a BR Code for its own amount. */
  pixQrCodePay (idEnvio: string, body: T.EfiPixQrCodePayRequest, options?: RequestOptions): Promise<T.EfiPixSent> { return this.client.call('efiPixQrCodePay', { params: { idEnvio }, body, options }) }
  pixSent (e2eId: string, options?: RequestOptions): Promise<T.EfiPixSentDetail> { return this.client.call('efiPixSentDetail', { params: { e2eId }, options }) }
  pixSentByIdEnvio (idEnvio: string, options?: RequestOptions): Promise<T.EfiPixSentDetail> { return this.client.call('efiPixSentDetailByIdEnvio', { params: { idEnvio }, options }) }
  /** GET /v2/gn/pix/enviados: `inicio` and `fim` (RFC 3339) are required. */
  pixSentList (query: T.EfiPixSentFilter, options?: RequestOptions): Promise<T.EfiPixSentList> { return this.client.call('efiPixSentList', { query, options }) }
  /** GET /v2/gn/saldo; with `bloqueios`, what open MED cases hold. */
  balance (bloqueios?: boolean, options?: RequestOptions): Promise<T.EfiBalance> { return this.client.call('efiGetBalance', { query: bloqueios === undefined ? {} : { bloqueios }, options }) }
  config (options?: RequestOptions): Promise<T.EfiAccountConfig> { return this.client.call('efiGetConfig', { options }) }
  /** PUT /v2/gn/config: replaces the settings whole (204). */
  putConfig (body: T.EfiAccountConfig, options?: RequestOptions): Promise<void> { return this.client.call('efiPutConfig', { body, options }) }
  createEvp (options?: RequestOptions): Promise<T.EfiEvp> { return this.client.call('efiCreateEvp', { options }) }
  evps (options?: RequestOptions): Promise<T.EfiEvpList> { return this.client.call('efiListEvp', { options }) }
  deleteEvp (chave: string, options?: RequestOptions): Promise<void> { return this.client.call('efiDeleteEvp', { params: { chave }, options }) }
  keyBuckets (options?: RequestOptions): Promise<T.EfiKeyBuckets> { return this.client.call('efiKeyBuckets', { options }) }
  /** GET /v2/loc/{id}/qrcode: the code of the charge a location serves, its SVG image and a page that shows them. */
  locQrCode (id: number, options?: RequestOptions): Promise<T.EfiLocQrCode> { return this.client.call('efiLocQrCode', { params: { id }, options }) }
  /** GET /v2/gn/infracoes: `inicio` and `fim` (RFC 3339) are required. */
  infracoes (query: T.EfiInfracoesFilter, options?: RequestOptions): Promise<T.EfiInfracoes> { return this.client.call('efiListInfracoes', { query, options }) }
  /** POST /v2/gn/infracoes/{idInfracao}/defesa: once per infração (201, no body). */
  defendInfracao (idInfracao: string, body: T.EfiDefesaRequest, options?: RequestOptions): Promise<void> { return this.client.call('efiDefendInfracao', { params: { idInfracao }, body, options }) }
  /** POST /v2/gn/webhook/reenviar: the last callback of each e2eid, once more (202). */
  resendWebhook (body: T.EfiResendRequest, options?: RequestOptions): Promise<void> { return this.client.call('efiResendWebhook', { body, options }) }
  /** GET /v2/gn/pix/comprovantes: the receipt, a PDF, as its bytes. */
  receipt (query: T.EfiReceiptQuery, options?: RequestOptions): Promise<ArrayBuffer> { return this.client.call('efiGetReceipt', { query, options }) }
  /** POST /v2/gn/relatorios/extrato-conciliacao (202). */
  requestReport (body: T.EfiReportRequest, options?: RequestOptions): Promise<T.EfiReportStatus> { return this.client.call('efiRequestReport', { body, options }) }
  /** GET /v2/gn/relatorios/{id}: the CSV once made, its status before. */
  report (id: string, options?: RequestOptions): Promise<T.EfiReportStatus | string> { return this.client.call('efiGetReport', { params: { id }, options }) }
  qrCodeDetail (body: T.EfiQrCodeDetailRequest, options?: RequestOptions): Promise<T.EfiQrCodeDetail> { return this.client.call('efiQrCodeDetail', { body, options }) }
  /** POST /v2/gn/split/config: a split configuration, its id drawn by the sandbox (201). */
  createSplitConfig (body: T.EfiSplitConfigRequest, options?: RequestOptions): Promise<T.EfiSplitConfig> { return this.client.call('efiCreateSplitConfig', { body, options }) }
  /** PUT /v2/gn/split/config/{id}: creates it, or adds its next revision (201). */
  putSplitConfig (id: string, body: T.EfiSplitConfigRequest, options?: RequestOptions): Promise<T.EfiSplitConfig> { return this.client.call('efiPutSplitConfig', { params: { id }, body, options }) }
  /** GET /v2/gn/split/config/{id}: its last revision, or `revisao`. */
  splitConfig (id: string, revisao?: number, options?: RequestOptions): Promise<T.EfiSplitConfig> {
    return this.client.call('efiGetSplitConfig', { params: { id }, query: revisao === undefined ? {} : { revisao: String(revisao) }, options })
  }

  /** PUT /v2/gn/split/cob(v)/{txid}/vinculo/{splitConfigId}: links a cob (`cob`) or a cobv (`cobv`) to a configuration's last revision (204). */
  linkSplit (kind: 'cob' | 'cobv', txid: string, splitConfigId: string, options?: RequestOptions): Promise<void> {
    return this.client.call(kind === 'cob' ? 'efiSplitLinkCharge' : 'efiSplitLinkDueCharge', { params: { txid, splitConfigId }, options })
  }

  /** DELETE /v2/gn/split/cob(v)/{txid}/vinculo, or with the configuration's id after it as sdk-node-apis-efi sends it. */
  unlinkSplit (kind: 'cob' | 'cobv', txid: string, splitConfigId?: string, options?: RequestOptions): Promise<void> {
    if (splitConfigId !== undefined) return this.client.call(kind === 'cob' ? 'efiSplitUnlinkChargeById' : 'efiSplitUnlinkDueChargeById', { params: { txid, splitConfigId }, options })
    return this.client.call(kind === 'cob' ? 'efiSplitUnlinkCharge' : 'efiSplitUnlinkDueCharge', { params: { txid }, options })
  }

  /** PUT /v2/gn/split/pix/{e2eid}/devolucao/{id}: API Pix's devolução, of a PIX that paid a charge linked to a split (201). */
  splitDevolucao (e2eid: string, id: string, body: T.ApiPixDevolucaoRequest, options?: RequestOptions): Promise<T.ApiPixDevolucao> {
    return this.client.call('efiSplitDevolucao', { params: { e2eid, id }, body, options })
  }

  /** GET /v2/gn/split/cob(v)/{txid}: the charge, the revision it is linked to, and each repasse. */
  splitCharge (kind: 'cob' | 'cobv', txid: string, options?: RequestOptions): Promise<T.EfiSplitCharge> {
    return this.client.call(kind === 'cob' ? 'efiSplitDetailCharge' : 'efiSplitDetailDueCharge', { params: { txid }, options })
  }
}

/** The central-bank-compatible family: BACEN-style payloads, simple error shape. */
export class CentralBankApi {
  constructor (private readonly client: PixClient) {}

  balances (options?: RequestOptions): Promise<T.Balances> { return this.client.call('getBalances', { options }) }
  /** POST /dict/pix; `idempotencyKey` (UUID v4) is generated when not given: repeat it to get the same transfer. */
  dictTransfer (body: T.DictTransferRequest, options: RequestOptions & { idempotencyKey?: string } = {}): Promise<T.DictTransfer> {
    return this.client.call('dictTransfer', { body, headers: { 'x-idempotency-key': options.idempotencyKey ?? crypto.randomUUID() }, options })
  }

  createCob (txid: string, body: T.CobRequest, options?: RequestOptions): Promise<T.Cob> { return this.client.call('createCob', { params: { txid }, body, options }) }
  cob (txid: string, options?: RequestOptions): Promise<T.Cob> { return this.client.call('getCob', { params: { txid }, options }) }
  /** POST /cob: BACEN's creation, the txid chosen by the sandbox. */
  createCobWithGeneratedTxid (body: T.CobRequest, options?: RequestOptions): Promise<T.Cob> { return this.client.call('createCobWithGeneratedTxid', { body, options }) }
  /** GET /cob: `inicio` and `fim` (RFC 3339) are required; paging as `paginacao.paginaAtual` and `paginacao.itensPorPagina`. */
  cobs (query: T.CobListFilter, options?: RequestOptions): Promise<T.CobList> { return this.client.call('listCobs', { query, options }) }
  /** PATCH /cob/{txid}: any field BACEN's CobRevisada allows. */
  reviseCob (txid: string, body: T.CobPatch, options?: RequestOptions): Promise<T.Cob> { return this.client.call('reviseCob', { params: { txid }, body, options }) }
  cancelCob (txid: string, options?: RequestOptions): Promise<T.Cob> {
    return this.reviseCob(txid, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, options)
  }

  /** GET /pix/{e2eid}: a PIX the account received. */
  receivedPix (e2eid: string, options?: RequestOptions): Promise<T.BacenPix> { return this.client.call('getReceivedPix', { params: { e2eid }, options }) }
  /** GET /pix: `inicio` and `fim` (RFC 3339) are required. */
  receivedPixList (query: T.BacenPixFilter, options?: RequestOptions): Promise<T.BacenPixList> { return this.client.call('listReceivedPix', { query, options }) }

  createDevolucao (e2eid: string, id: string, body: T.DevolucaoRequest, options?: RequestOptions): Promise<T.Devolucao> {
    return this.client.call('createDevolucao', { params: { e2eid, id }, body, options })
  }

  devolucao (e2eid: string, id: string, options?: RequestOptions): Promise<T.Devolucao> { return this.client.call('getDevolucao', { params: { e2eid, id }, options }) }
}

/**
 * BACEN's API Pix 2.9.0 (docs/api-pix.md), over the same accounts and records as the gateway. Its calls
 * send the client's bearer token (a gateway token carries the account's whole grant of scopes); `token`
 * is API Pix's own sign-in.
 */
export class ApiPixApi {
  constructor (private readonly client: PixClient) {}

  /** POST /oauth/token: client credentials with HTTP Basic and the certificate; `scope` space-separated, the account's whole grant when absent. */
  token (scope?: string, options?: RequestOptions): Promise<T.ApiPixToken> {
    return this.client.call('apiPixToken', { body: { grant_type: 'client_credentials', ...(scope !== undefined ? { scope } : {}) } satisfies T.ApiPixTokenRequest, options })
  }

  /** PUT /cob/{txid}: `location` is the payload URL, `pixCopiaECola` the BR Code that carries it. */
  createCob (txid: string, body: T.ApiPixCobRequest, options?: RequestOptions): Promise<T.ApiPixCob> { return this.client.call('apiPixCreateCob', { params: { txid }, body, options }) }
  /** POST /cob: the txid chosen by the sandbox. */
  createCobWithGeneratedTxid (body: T.ApiPixCobRequest, options?: RequestOptions): Promise<T.ApiPixCob> { return this.client.call('apiPixCreateCobWithGeneratedTxid', { body, options }) }
  reviseCob (txid: string, body: T.ApiPixCobPatch, options?: RequestOptions): Promise<T.ApiPixCob> { return this.client.call('apiPixReviseCob', { params: { txid }, body, options }) }
  cob (txid: string, options?: RequestOptions): Promise<T.ApiPixCob> { return this.client.call('apiPixGetCob', { params: { txid }, options }) }
  /** GET /cob: `inicio` and `fim` (RFC 3339) are required. */
  cobs (query: T.ApiPixCobFilter, options?: RequestOptions): Promise<T.ApiPixCobList> { return this.client.call('apiPixListCobs', { query, options }) }
  createLoc (body: T.ApiPixLocRequest, options?: RequestOptions): Promise<T.ApiPixLoc> { return this.client.call('apiPixCreateLoc', { body, options }) }
  loc (id: number, options?: RequestOptions): Promise<T.ApiPixLoc> { return this.client.call('apiPixGetLoc', { params: { id }, options }) }
  locs (query: T.ApiPixLocFilter, options?: RequestOptions): Promise<T.ApiPixLocList> { return this.client.call('apiPixListLocs', { query, options }) }
  /** DELETE /loc/{id}/txid: the location serves no charge any more. */
  unbindLoc (id: number, options?: RequestOptions): Promise<T.ApiPixLoc> { return this.client.call('apiPixUnbindLoc', { params: { id }, options }) }
  /** What a payer's PSP reads at a location (`<host>/qr/v2/<token>`): the charge's payload as a compact JWS. */
  async payload (location: string, options?: RequestOptions): Promise<string> {
    return this.client.call('apiPixPayload', { params: { token: location.slice(location.lastIndexOf('/') + 1) }, options })
  }

  /** The JWK Set of the key that signs payloads. */
  jwks (options?: RequestOptions): Promise<T.ApiPixJwks> { return this.client.call('apiPixJwks', { options }) }

  // ---- Pix Automático ----
  createRec (body: T.ApiPixRecRequest, options?: RequestOptions): Promise<T.ApiPixRec> { return this.client.call('apiPixCreateRec', { body, options }) }
  /** GET /rec/{idRec}; with `txid`, dadosQR is the composite code of journey 3. */
  rec (idRec: string, txid?: string, options?: RequestOptions): Promise<T.ApiPixRecComplete> { return this.client.call('apiPixGetRec', { params: { idRec }, query: txid !== undefined ? { txid } : {}, options }) }
  reviseRec (idRec: string, body: T.ApiPixRecRequest, options?: RequestOptions): Promise<T.ApiPixRec> { return this.client.call('apiPixReviseRec', { params: { idRec }, body, options }) }
  recs (query: T.ApiPixRecFilter, options?: RequestOptions): Promise<T.ApiPixRecList> { return this.client.call('apiPixListRecs', { query, options }) }
  createSolicRec (body: T.ApiPixRecRequest, options?: RequestOptions): Promise<T.ApiPixSolicRec> { return this.client.call('apiPixCreateSolicRec', { body, options }) }
  solicRec (idSolicRec: string, options?: RequestOptions): Promise<T.ApiPixSolicRec> { return this.client.call('apiPixGetSolicRec', { params: { idSolicRec }, options }) }
  /** PATCH /solicrec/{idSolicRec} with `{ status: 'CANCELADA' }`. */
  reviseSolicRec (idSolicRec: string, body: T.ApiPixRecRequest, options?: RequestOptions): Promise<T.ApiPixSolicRec> { return this.client.call('apiPixReviseSolicRec', { params: { idSolicRec }, body, options }) }
  createLocRec (options?: RequestOptions): Promise<T.ApiPixLocRec> { return this.client.call('apiPixCreateLocRec', { options }) }
  locRec (id: number, options?: RequestOptions): Promise<T.ApiPixLocRec> { return this.client.call('apiPixGetLocRec', { params: { id }, options }) }
  locRecs (query: T.ApiPixLocRecFilter, options?: RequestOptions): Promise<T.ApiPixLocRecList> { return this.client.call('apiPixListLocRecs', { query, options }) }
  unbindLocRec (id: number, options?: RequestOptions): Promise<T.ApiPixLocRec> { return this.client.call('apiPixUnbindLocRec', { params: { id }, options }) }
  /** What a payer's PSP reads at a recurrence's location (`<host>/qr/v2/rec/<token>`): RecPayload as a compact JWS. */
  async recPayload (location: string, options?: RequestOptions): Promise<string> {
    return this.client.call('apiPixRecPayload', { params: { token: location.slice(location.lastIndexOf('/') + 1) }, options })
  }

  putWebhookRec (webhookUrl: string, options?: RequestOptions): Promise<void> { return this.client.call('apiPixPutWebhookRec', { body: { webhookUrl }, options }) }
  webhookRec (options?: RequestOptions): Promise<T.ApiPixWebhookRec> { return this.client.call('apiPixGetWebhookRec', { options }) }
  deleteWebhookRec (options?: RequestOptions): Promise<void> { return this.client.call('apiPixDeleteWebhookRec', { options }) }
  /** GET /pix/{e2eid}: a PIX the account received; `txid` only for one that paid a cob. */
  pix (e2eid: string, options?: RequestOptions): Promise<T.ApiPixPix> { return this.client.call('apiPixGetPix', { params: { e2eid }, options }) }
  /** GET /pix: `inicio` and `fim` (RFC 3339) are required. */
  pixList (query: T.ApiPixPixFilter, options?: RequestOptions): Promise<T.ApiPixPixList> { return this.client.call('apiPixListPix', { query, options }) }
  /** PUT /pix/{e2eid}/devolucao/{id}: EM_PROCESSAMENTO, then DEVOLVIDO or NAO_REALIZADO. */
  createDevolucao (e2eid: string, id: string, body: T.ApiPixDevolucaoRequest, options?: RequestOptions): Promise<T.ApiPixDevolucao> {
    return this.client.call('apiPixCreateDevolucao', { params: { e2eid, id }, body, options })
  }

  devolucao (e2eid: string, id: string, options?: RequestOptions): Promise<T.ApiPixDevolucao> { return this.client.call('apiPixGetDevolucao', { params: { e2eid, id }, options }) }
  /** PUT /webhook/{chave}: the PIX received on a key the account holds are posted to `{webhookUrl}/pix`. */
  putWebhook (chave: string, body: T.ApiPixWebhookRequest, options?: RequestOptions): Promise<void> { return this.client.call('apiPixPutWebhook', { params: { chave }, body, options }) }
  webhook (chave: string, options?: RequestOptions): Promise<T.ApiPixWebhook> { return this.client.call('apiPixGetWebhook', { params: { chave }, options }) }
  deleteWebhook (chave: string, options?: RequestOptions): Promise<void> { return this.client.call('apiPixDeleteWebhook', { params: { chave }, options }) }
  webhooks (query: T.ApiPixWebhookFilter = {}, options?: RequestOptions): Promise<T.ApiPixWebhookList> { return this.client.call('apiPixListWebhooks', { query, options }) }
  /** PUT /cobv/{txid}: a due charge (or, on an ATIVA one, its fields replaced); its code carries no amount. */
  createCobV (txid: string, body: T.ApiPixCobVRequest, options?: RequestOptions): Promise<T.ApiPixCobV> { return this.client.call('apiPixCreateCobV', { params: { txid }, body, options }) }
  reviseCobV (txid: string, body: T.ApiPixCobVPatch, options?: RequestOptions): Promise<T.ApiPixCobV> { return this.client.call('apiPixReviseCobV', { params: { txid }, body, options }) }
  cobv (txid: string, options?: RequestOptions): Promise<T.ApiPixCobV> { return this.client.call('apiPixGetCobV', { params: { txid }, options }) }
  /** GET /cobv: `inicio` and `fim` (RFC 3339) are required. */
  cobvs (query: T.ApiPixCobVFilter, options?: RequestOptions): Promise<T.ApiPixCobVList> { return this.client.call('apiPixListCobVs', { query, options }) }
  /** What a payer's PSP reads at a cobv's location (`<host>/qr/v2/cobv/<token>`): its payload for the payment date `DPP` (today when absent), as a compact JWS. */
  async cobvPayload (location: string, query: { DPP?: string, codMun?: string } = {}, options?: RequestOptions): Promise<string> {
    return this.client.call('apiPixCobVPayload', { params: { token: location.slice(location.lastIndexOf('/') + 1) }, query, options })
  }

  /** PUT /lotecobv/{id}: 202, the batch's requests processed later (`loteCobV` shows each one's status). */
  async putLoteCobV (id: number, body: T.ApiPixLoteCobVRequest, options?: RequestOptions): Promise<void> { await this.client.call('apiPixPutLoteCobV', { params: { id }, body, options }) }
  async reviseLoteCobV (id: number, body: T.ApiPixLoteCobVPatch, options?: RequestOptions): Promise<void> { await this.client.call('apiPixReviseLoteCobV', { params: { id }, body, options }) }
  loteCobV (id: number, options?: RequestOptions): Promise<T.ApiPixLoteCobV> { return this.client.call('apiPixGetLoteCobV', { params: { id }, options }) }
  loteCobVs (query: T.ApiPixLoteCobVFilter, options?: RequestOptions): Promise<T.ApiPixLoteCobVList> { return this.client.call('apiPixListLoteCobV', { query, options }) }

  /** PUT /cobr/{txid}: a recurring charge of an APROVADA recurrence (Pix Automático), debited on its date. */
  createCobR (txid: string, body: T.ApiPixCobRRequest, options?: RequestOptions): Promise<T.ApiPixCobR> { return this.client.call('apiPixCreateCobR', { params: { txid }, body, options }) }
  createCobRWithGeneratedTxid (body: T.ApiPixCobRRequest, options?: RequestOptions): Promise<T.ApiPixCobR> { return this.client.call('apiPixCreateCobRWithGeneratedTxid', { body, options }) }
  /** PATCH /cobr/{txid}: `{ status: 'CANCELADA' }` cancels it before its first attempt's date. */
  reviseCobR (txid: string, body: T.ApiPixCobRPatch, options?: RequestOptions): Promise<T.ApiPixCobR> { return this.client.call('apiPixReviseCobR', { params: { txid }, body, options }) }
  cobr (txid: string, options?: RequestOptions): Promise<T.ApiPixCobR> { return this.client.call('apiPixGetCobR', { params: { txid }, options }) }
  /** GET /cobr: `inicio` and `fim` (RFC 3339) are required. */
  cobrList (query: T.ApiPixCobRFilter, options?: RequestOptions): Promise<T.ApiPixCobRList> { return this.client.call('apiPixListCobRs', { query, options }) }
  /** POST /cobr/{txid}/retentativa/{data}: a retry on `data` (YYYY-MM-DD) after a failed attempt. */
  retryCobR (txid: string, data: string, options?: RequestOptions): Promise<T.ApiPixCobR> { return this.client.call('apiPixRetryCobR', { params: { txid, data }, options }) }
  /** PUT /webhookcobr: each change of the account's recurring charges is posted to `{webhookUrl}/cobr`. */
  putWebhookCobR (body: T.ApiPixWebhookCobRRequest, options?: RequestOptions): Promise<void> { return this.client.call('apiPixPutWebhookCobR', { body, options }) }
  webhookCobR (options?: RequestOptions): Promise<T.ApiPixWebhookCobR> { return this.client.call('apiPixGetWebhookCobR', { options }) }
  deleteWebhookCobR (options?: RequestOptions): Promise<void> { return this.client.call('apiPixDeleteWebhookCobR', { options }) }
}

/** The control plane (/__sandbox): state, clock, scenarios, webhooks and the delivery log. */
export class SandboxApi {
  constructor (private readonly client: PixClient) {}

  health (options?: RequestOptions): Promise<T.Health> { return this.client.call('sandboxHealth', { options }) }
  // ---- Pix Automático: the payer's side ----
  /**
   * A page of Pix Automático's recurrences (of one account, when given), the last made first, each with
   * its recurring charges counted; `nextCursor`, while older ones remain, is the `cursor` of the next page.
   */
  recurrences (query: T.RecurrenceFilter = {}, options?: RequestOptions): Promise<T.SandboxRecurrenceList> { return this.client.call('sandboxListRecurrences', { query, options }) }
  /** One recurrence of any account, with its recurring charges and their attempts, oldest first. */
  recurrence (idRec: string, options?: RequestOptions): Promise<T.SandboxRecurrenceWithCharges> { return this.client.call('sandboxGetRecurrence', { params: { idRec }, options }) }
  approveRecurrence (idRec: string, approval: T.RecurrenceApproval = {}, options?: RequestOptions): Promise<T.SandboxRecurrence> { return this.client.call('sandboxRecurrenceApprove', { params: { idRec }, body: approval, options }) }
  rejectRecurrence (idRec: string, rejection: T.RecurrenceRejection = {}, options?: RequestOptions): Promise<T.SandboxRecurrence> { return this.client.call('sandboxRecurrenceReject', { params: { idRec }, body: rejection, options }) }
  expireRecurrence (idRec: string, options?: RequestOptions): Promise<T.SandboxRecurrence> { return this.client.call('sandboxRecurrenceExpire', { params: { idRec }, options }) }
  cancelRecurrence (idRec: string, options?: RequestOptions): Promise<T.SandboxRecurrence> { return this.client.call('sandboxRecurrenceCancel', { params: { idRec }, options }) }
  /** The static code of a recurrence's contract (journey 4): paid, a PIX received on its key, and the payer's answer to the recurrence while CRIADA. */
  recurrenceStaticCode (idRec: string, request: T.RecurrenceStaticCodeRequest = {}, options?: RequestOptions): Promise<T.RecurrenceStaticCode> { return this.client.call('sandboxRecurrenceStaticCode', { params: { idRec }, body: request, options }) }
  setPayerBehaviour (behaviour: T.PayerBehaviourInput, options?: RequestOptions): Promise<T.PayerBehaviour> { return this.client.call('sandboxSetPayerBehaviour', { body: behaviour, options }) }
  payerBehaviours (query: T.AccountFilter = {}, options?: RequestOptions): Promise<{ behaviours: T.PayerBehaviour[] }> { return this.client.call('sandboxListPayerBehaviours', { query, options }) }
  deletePayerBehaviour (id: number, options?: RequestOptions): Promise<void> { return this.client.call('sandboxDeletePayerBehaviour', { params: { id }, options }) }
  /**
   * Everything back to the fixtures, or one account (by its id) to its first state. A full reset starts the
   * clock where the sandbox's settings do, or at `{ clockStart, clock }` for this reset alone: the way back to
   * an earlier date (`setClock` only moves forward).
   */
  reset (target?: number | T.ResetRequest, options?: RequestOptions): Promise<T.Reset> {
    return this.client.call('sandboxReset', { body: typeof target === 'object' ? target : { accountId: target } satisfies T.ResetRequest, options })
  }

  clock (options?: RequestOptions): Promise<T.Clock> { return this.client.call('sandboxGetClock', { options }) }
  /** Moves the sandbox clock forward, running every timed effect due on the way before answering. */
  advanceClock (ms: number, options?: RequestOptions): Promise<T.Clock> { return this.client.call('sandboxAdvanceClock', { body: { ms } satisfies T.ClockAdvance, options }) }
  setClock (now: string | Date, options?: RequestOptions): Promise<T.Clock> {
    return this.client.call('sandboxSetClock', { body: { now: typeof now === 'string' ? now : now.toISOString() } satisfies T.ClockSet, options })
  }

  /** Moves the clock to the next debit of a live recurring charge (of one account, when given), running it; `debit` null when none is to come. */
  advanceToNextDue (accountId?: number, options?: RequestOptions): Promise<T.NextDue> {
    return this.client.call('sandboxAdvanceToNextDue', { body: accountId !== undefined ? { accountId } : {}, options })
  }

  /** Forces what the next debit of a live recurring charge comes to (PAID, INSUFFICIENT_FUNDS, REFUSED with its codigo, NO_ANSWER). */
  forceNextDebit (accountId: number, txid: string, body: T.NextDebitRequest, options?: RequestOptions): Promise<T.NextDebit> {
    return this.client.call('sandboxForceNextDebit', { params: { id: accountId, txid }, body, options })
  }

  freezeClock (options?: RequestOptions): Promise<T.Clock> { return this.client.call('sandboxFreezeClock', { options }) }
  resumeClock (options?: RequestOptions): Promise<T.Clock> { return this.client.call('sandboxResumeClock', { options }) }
  snapshot (options?: RequestOptions): Promise<T.Snapshot> { return this.client.call('sandboxExportSnapshot', { options }) }
  restoreSnapshot (snapshot: T.SnapshotImport, options?: RequestOptions): Promise<T.SnapshotImportResult> { return this.client.call('sandboxImportSnapshot', { body: snapshot, options }) }
  requests (query: T.RequestFilter = {}, options?: RequestOptions): Promise<T.Requests> { return this.client.call('sandboxListRequests', { query, options }) }
  request (id: number, options?: RequestOptions): Promise<T.JournalEntry> { return this.client.call('sandboxGetRequest', { params: { id }, options }) }
  countRequests (matcher: T.RequestMatch = {}, options?: RequestOptions): Promise<T.RequestCountResult> { return this.client.call('sandboxCountRequests', { body: matcher, options }) }
  /** Resolves when the journal holds the expected number of matches; else rejects with a PixApiError (409) whose `body.details.nearMisses` lists the closest entries. */
  verifyRequests (verification: T.RequestVerification, options?: RequestOptions): Promise<T.RequestsVerified> { return this.client.call('sandboxVerifyRequests', { body: verification, options }) }
  clearRequests (accountId?: number, options?: RequestOptions): Promise<T.RequestsCleared> { return this.client.call('sandboxClearRequests', { query: { accountId } satisfies T.ClearRequestsFilter, options }) }

  /** A fresh isolated account with its own credentials, client certificate and private key. */
  createAccount (settings: T.AccountSettings = {}, options?: RequestOptions): Promise<T.CreatedAccount> { return this.client.call('sandboxCreateAccount', { body: settings, options }) }
  accounts (options?: RequestOptions): Promise<T.Accounts> { return this.client.call('sandboxListAccounts', { options }) }
  account (id: number, options?: RequestOptions): Promise<T.Account> { return this.client.call('sandboxGetAccount', { params: { id }, options }) }
  /** The account's Mercado Pago notification URL ("Your integrations", docs/mercado-pago.md); null removes it. */
  setMercadoPagoWebhook (id: number, url: string | null, options?: RequestOptions): Promise<T.Account> { return this.client.call('sandboxSetMercadoPagoWebhook', { params: { id }, body: { url }, options }) }
  /** An account's Mercado Pago payments, the last made first, a page at a time (`nextCursor`), each with its `transactionId`. */
  mercadoPagoPayments (query: T.MercadoPagoPaymentFilter, options?: RequestOptions): Promise<{ payments: Array<MercadoPagoPayment & { accountId: number, transactionId: string }>, nextCursor?: number }> {
    return this.client.call('sandboxListMercadoPagoPayments', { query, options })
  }

  /** An access token of the account for a tool such as a script or the CLI, which the integration report does not grade. */
  issueToken (id: number, options?: RequestOptions): Promise<T.AccessToken> { return this.client.call('sandboxIssueToken', { params: { id }, options }) }
  /** `{ set: 100 }` or `{ credit: 50 }` (a negative credit debits). */
  changeBalance (id: number, change: T.BalanceChange, options?: RequestOptions): Promise<T.Account> { return this.client.call('sandboxChangeBalance', { params: { id }, body: change, options }) }
  /** The settings that may change after creation: `{ webhookMtlsCheck: false }` (docs/webhooks.md, mutual TLS). */
  changeAccount (id: number, change: T.AccountChange, options?: RequestOptions): Promise<T.Account> { return this.client.call('sandboxChangeAccount', { params: { id }, body: change, options }) }

  scenarios (options?: RequestOptions): Promise<T.Scenarios> { return this.client.call('sandboxListScenarios', { options }) }
  armScenario (arming: T.ScenarioArming, options?: RequestOptions): Promise<T.Armed> { return this.client.call('sandboxArmScenario', { body: arming, options }) }
  armedScenarios (query: T.AccountFilter = {}, options?: RequestOptions): Promise<T.ArmedList> { return this.client.call('sandboxListArmedScenarios', { query, options }) }
  disarmScenario (id: number, options?: RequestOptions): Promise<void> { return this.client.call('sandboxDisarmScenario', { params: { id }, options }) }

  registerWebhook (registration: T.SandboxWebhookRegistration, options?: RequestOptions): Promise<T.Webhook> { return this.client.call('sandboxRegisterWebhook', { body: registration, options }) }
  webhooks (query: T.AccountFilter = {}, options?: RequestOptions): Promise<T.Webhooks> { return this.client.call('sandboxListWebhooks', { query, options }) }
  updateWebhook (id: number, update: T.WebhookUpdate, options?: RequestOptions): Promise<T.Webhook> { return this.client.call('sandboxUpdateWebhook', { params: { id }, body: update, options }) }
  deleteWebhook (id: number, options?: RequestOptions): Promise<void> { return this.client.call('sandboxDeleteWebhook', { params: { id }, options }) }
  testWebhook<E extends T.DeliveryEventType | T.DialectEventType> (test: T.WebhookTest & { eventType: E }, options?: RequestOptions): Promise<T.WebhookTestResult<E>> {
    return this.client.call('sandboxTestWebhook', { body: test, options })
  }

  /** The delivery log, newest first; with `eventType`, each delivery's body is typed as that event's payload. */
  deliveries<E extends T.DeliveryEventType | T.DialectEventType = T.DeliveryEventType> (filter: T.DeliveryFilter & { eventType?: E } = {}, options?: RequestOptions): Promise<T.Deliveries<E>> {
    return this.client.call('sandboxListDeliveries', { query: filter, options })
  }

  /**
   * The newest delivery matching the filter, as soon as one exists (e.g. `status: 'delivered'`);
   * a PixApiError with code WAIT_TIMEOUT (408) after `timeoutMs` (10 s unless set, at most 60 s), whose
   * message says what became of the closest delivery (no receiver, pending after a refused connection, ...)
   * and whose `body.details.nearMisses` lists up to five, each with the fields that differed.
   * With `eventType`, the delivery's body is typed as that event's payload.
   */
  waitForDelivery<E extends T.DeliveryEventType | T.DialectEventType = T.DeliveryEventType> (filter: T.DeliveryWait & { eventType?: E }, options?: RequestOptions): Promise<T.Delivery<E>> {
    return this.client.call('sandboxWaitForDelivery', { query: filter, options })
  }

  delivery (id: string, options?: RequestOptions): Promise<T.Delivery> { return this.client.call('sandboxGetDelivery', { params: { id }, options }) }
  redeliver (id: string, options?: RequestOptions): Promise<T.Delivery> { return this.client.call('sandboxRedeliver', { params: { id }, options }) }
  /** The CA (PEM) a webhook receiver trusts to accept the sandbox's client certificate (docs/webhooks.md, mutual TLS). */
  webhookCa (options?: RequestOptions): Promise<string> { return this.client.call('sandboxWebhookCa', { options }) }

  /** The integration report of an account: each homologation check passed, failed (with evidence) or not exercised. */
  report (accountId: number, options?: RequestOptions): Promise<T.IntegrationReport> { return this.client.call('sandboxReport', { query: { accountId }, options }) }
  /** Sends the account's receivers a webhook with a bad signature; the report's signature check grades the answer. */
  reportProbe (probe: T.ReportProbe, options?: RequestOptions): Promise<T.WebhookTestResult> { return this.client.call('sandboxReportProbe', { body: probe, options }) }

  transactions (filter: T.TransactionFilter = {}, options?: RequestOptions): Promise<T.Transactions> { return this.client.call('sandboxListTransactions', { query: filter, options }) }
  /** A transaction by its UUID or numeric id, with its history of states. */
  transaction (id: string, options?: RequestOptions): Promise<T.Transaction> { return this.client.call('sandboxGetTransaction', { params: { id }, options }) }
  /** Liquidates a pending operation now (a forced success, with its webhooks). */
  settle (id: string, options?: RequestOptions): Promise<T.Transaction> { return this.client.call('sandboxSettleTransaction', { params: { id }, options }) }
  /** Ends a pending operation now with an asynchronous error of docs/gateway.md §6.4. */
  fail (id: string, errorCode: T.AsyncErrorCode, options?: RequestOptions): Promise<T.Transaction> { return this.client.call('sandboxFailTransaction', { params: { id }, body: { errorCode }, options }) }
  /** The destination bank returns a liquidated pay-out: credits the account and fires refund_out. */
  refundReceived (id: string, refund: T.RefundReceived = {}, options?: RequestOptions): Promise<T.Transaction> { return this.client.call('sandboxRefundReceived', { params: { id }, body: refund, options }) }

  directory (options?: RequestOptions): Promise<T.Directory> { return this.client.call('sandboxListDirectory', { options }) }
  directoryEntry (key: string, options?: RequestOptions): Promise<T.DirectoryEntry> { return this.client.call('sandboxGetDirectoryEntry', { params: { key }, options }) }
  putDirectoryEntry (key: string, entry: T.DirectoryEntryInput, options?: RequestOptions): Promise<T.DirectoryEntry> { return this.client.call('sandboxPutDirectoryEntry', { params: { key }, body: entry, options }) }
  deleteDirectoryEntry (key: string, options?: RequestOptions): Promise<void> { return this.client.call('sandboxDeleteDirectoryEntry', { params: { key }, options }) }

  /** Pays a charge of this sandbox by its copy-and-paste code, as a payer's bank app would. */
  pay (pixCode: string, payment: Omit<T.PixPayment, 'pixCode'> = {}, options?: RequestOptions): Promise<T.ReceivedPix> { return this.client.call('sandboxPay', { body: { ...payment, pixCode }, options }) }
  /** An unsolicited PIX arrives for an account. */
  incoming (pix: T.IncomingPix, options?: RequestOptions): Promise<T.ReceivedPix> { return this.client.call('sandboxReceivePix', { body: pix, options }) }

  openMed (opening: T.MedOpening, options?: RequestOptions): Promise<T.SandboxMed> { return this.client.call('sandboxOpenMed', { body: opening, options }) }
  meds (query: T.AccountFilter = {}, options?: RequestOptions): Promise<T.SandboxMeds> { return this.client.call('sandboxListMed', { query, options }) }
  med (id: number, options?: RequestOptions): Promise<T.SandboxMed> { return this.client.call('sandboxGetMed', { params: { id }, options }) }
  transitionMed (id: number, transition: T.MedTransition, options?: RequestOptions): Promise<T.MedTransitioned> { return this.client.call('sandboxTransitionMed', { params: { id }, body: transition, options }) }

  /** A page of API Pix's payload locations of every account, or one's, the last made first (docs/api-pix.md); `nextCursor` while older ones remain. */
  locations (query: T.LocationFilter = {}, options?: RequestOptions): Promise<T.SandboxLocations> { return this.client.call('sandboxListLocations', { query, options }) }
  /** A page of API Pix's due charges (cobv), the last made first, each with `valorHoje`, what a payer pays today; `nextCursor` while older ones remain. */
  cobvs (query: T.CobVFilter = {}, options?: RequestOptions): Promise<T.SandboxCobVs> { return this.client.call('sandboxListCobVs', { query, options }) }
  /** A page of API Pix's batches of due charges (lotecobv), the last made first, each request with its status; `nextCursor` while older ones remain. */
  cobvBatches (query: T.CobVBatchFilter = {}, options?: RequestOptions): Promise<T.SandboxCobVBatches> { return this.client.call('sandboxListCobVBatches', { query, options }) }
  /** A page of API Pix's webhooks (PUT /webhook/{chave}, /webhookrec, /webhookcobr), the last made first; `nextCursor` while older ones remain. */
  apiPixWebhooks (query: T.SandboxApiPixWebhookFilter = {}, options?: RequestOptions): Promise<T.SandboxApiPixWebhooks> { return this.client.call('sandboxListApiPixWebhooks', { query, options }) }
}

/** A client of the sandbox at `baseUrl`; give an account's credentials to call the gateway API. */
export function createClient (options: ClientOptions): PixClient {
  return new PixClient(options)
}

/** A Mercado Pago payment as the client reads it: the fields a test checks first, every other key as answered. */
export interface MercadoPagoPayment {
  id: number
  status: string
  status_detail: string
  transaction_amount: number
  transaction_amount_refunded: number
  point_of_interaction: { transaction_data: { qr_code: string, qr_code_base64: string, ticket_url: string } }
  [field: string]: unknown
}
/** A refund of a Mercado Pago payment. */
export interface MercadoPagoRefund { id: number, payment_id: number, amount: number, status: string, [field: string]: unknown }
type MercadoPagoBody = Record<string, unknown>

/**
 * Mercado Pago's payments API with an account's access token (docs/mercado-pago.md), for a test that
 * does without its SDK: `X-Idempotency-Key` generated on the POSTs unless given. Paying a payment is
 * the control plane's (`sandbox.pay(payment.point_of_interaction.transaction_data.qr_code)`), and
 * waiting for its notification too (`sandbox.waitForDelivery({ eventType: 'mercado_pago_payment' })`).
 */
export class MercadoPagoApi {
  constructor (private readonly client: PixClient, private readonly accessToken: string) {}

  private headers (idempotencyKey?: string, renderInProcess = false): Record<string, string> {
    return {
      authorization: `Bearer ${this.accessToken}`,
      ...(idempotencyKey !== undefined ? { 'x-idempotency-key': idempotencyKey } : {}),
      // A refund held in process is a 400 without it, hidden from the reads (docs/mercado-pago.md).
      ...(renderInProcess ? { 'x-render-in-process-refunds': 'true' } : {}),
    }
  }

  createPayment (body: MercadoPagoBody, options: RequestOptions & { idempotencyKey?: string } = {}): Promise<MercadoPagoPayment> {
    return this.client.call('mercadoPagoCreatePayment', { body, headers: this.headers(options.idempotencyKey ?? crypto.randomUUID()), options })
  }

  payment (id: number, options?: RequestOptions): Promise<MercadoPagoPayment> { return this.client.call('mercadoPagoGetPayment', { params: { id }, headers: this.headers(), options }) }
  /** GET /v1/payments/search: `{ paging, results }`. */
  searchPayments (query: Record<string, string | number> = {}, options?: RequestOptions): Promise<{ paging: { total: number, limit: number, offset: number }, results: MercadoPagoPayment[] }> {
    return this.client.call('mercadoPagoSearchPayments', { query, headers: this.headers(), options })
  }

  /** PUT /v1/payments/{id} `{"status":"cancelled"}`. */
  cancelPayment (id: number, options?: RequestOptions): Promise<MercadoPagoPayment> { return this.client.call('mercadoPagoUpdatePayment', { params: { id }, body: { status: 'cancelled' }, headers: this.headers(), options }) }
  /** POST /v1/payments/{id}/refunds: `amount` for a partial refund, none for what is left; `renderInProcess` sends X-Render-In-Process-Refunds. */
  refund (id: number, amount?: number, options: RequestOptions & { idempotencyKey?: string, renderInProcess?: boolean } = {}): Promise<MercadoPagoRefund> {
    return this.client.call('mercadoPagoCreateRefund', { params: { id }, body: amount === undefined ? {} : { amount }, headers: this.headers(options.idempotencyKey ?? crypto.randomUUID(), options.renderInProcess), options })
  }

  refunds (id: number, options: RequestOptions & { renderInProcess?: boolean } = {}): Promise<MercadoPagoRefund[]> { return this.client.call('mercadoPagoListRefunds', { params: { id }, headers: this.headers(undefined, options.renderInProcess), options }) }
  refundOf (id: number, refundId: number, options: RequestOptions & { renderInProcess?: boolean } = {}): Promise<MercadoPagoRefund> { return this.client.call('mercadoPagoGetRefund', { params: { id, refundId }, headers: this.headers(undefined, options.renderInProcess), options }) }
  /** The ticket page of a payment (its `ticket_url`), as HTML. */
  ticket (payment: MercadoPagoPayment, options?: RequestOptions): Promise<string> {
    const url = new URL(payment.point_of_interaction.transaction_data.ticket_url)
    return this.client.call('mercadoPagoTicket', { params: { id: payment.id }, query: Object.fromEntries(url.searchParams), options })
  }
}

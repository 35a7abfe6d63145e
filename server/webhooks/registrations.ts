import { Refusal, type Code } from '../errors/refusal.js'
import type { Clock } from '../engine/clock.js'
import type { Store } from '../store/store.js'
import type { EventType, WebhookRegistration } from './types.js'

/**
 * Webhook registrations (docs/gateway.md §2.11, 4.1 items 3-4, 8): up to 3 active URLs per event type and account,
 * the same URL for the same event updates that entry (headers, version) and nothing else, at most 5
 * custom headers, some header names reserved to the sender. Records live in `store.data.webhooks`.
 */
export const MAX_ACTIVE_PER_EVENT = 3
export const MAX_CUSTOM_HEADERS = 5
/** The sender sets these itself; a receiver-controlled value would break framing or content negotiation. */
export const BLOCKED_HEADERS = ['host', 'content-length', 'connection', 'transfer-encoding', 'content-type', 'user-agent'] as const
/**
 * Hop-by-hop names (RFC 9110 7.6.1, and the ones undici refuses outright: a request carrying one
 * fails inside the HTTP client on every attempt) and the sandbox's own delivery headers, which a
 * registration must not forge: a second X-Sandbox-Signature beside the real one breaks verification.
 */
const HOP_BY_HOP = new Set(['expect', 'upgrade', 'keep-alive', 'te', 'trailer', 'http2-settings'])
const SANDBOX_PREFIX = 'x-sandbox-'

export interface HeaderInput {
  key: string
  value: string
}

export interface RegisterInput {
  accountId: number
  /** The life of the account the request's token was issued to (store/state.ts), when a token names it. */
  incarnation?: string | undefined
  eventType: EventType
  url: string
  headers?: HeaderInput[]
}

export interface RegisterOptions {
  /** The public route accepts HTTPS only (docs/gateway.md §2.11); the control plane accepts http:// for local receivers. */
  httpsOnly: boolean
}

// RFC 9110 token characters; anything else makes undici refuse the request at delivery time.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/
/**
 * RFC 9110 field-value of visible Latin-1 characters (what a header carries byte for byte): visible ASCII
 * and U+00A0-U+00FF, spaces and tabs only between them (a receiver drops them at either end). No
 * control characters (CR, LF and NUL would allow header injection) and nothing beyond U+00FF, which an
 * HTTP client cannot send.
 */
const HEADER_VALUE = /^(?:[\x21-\x7e\xa0-\xff](?:[\x20\t\x21-\x7e\xa0-\xff]{0,998}[\x21-\x7e\xa0-\xff])?)?$/

/** A registration rule, in the gateway's Portuguese (/api/webhooks) and the control plane's English. */
const rule = (code: Code, message: string, en: string) => new Refusal(code, message, { en })

/** Why a custom header cannot be sent with a delivery, or null when it can. */
function headerProblem (key: string, value: string): Refusal | null {
  const lower = key.toLowerCase()
  if ((BLOCKED_HEADERS as readonly string[]).includes(lower)) {
    return rule('WEBHOOK_HEADER_NOT_ALLOWED', `O cabeçalho "${key}" não é permitido; nomes bloqueados: ${BLOCKED_HEADERS.join(', ')}`, `Header "${key}" is not allowed; blocked names: ${BLOCKED_HEADERS.join(', ')}`)
  }
  if (HOP_BY_HOP.has(lower) || lower.startsWith('proxy-')) {
    return rule('WEBHOOK_HEADER_NOT_ALLOWED', `O cabeçalho "${key}" não é permitido: é de conexão (hop-by-hop) e não pode ser enviado numa entrega`, `Header "${key}" is not allowed: it is hop-by-hop and cannot be sent with a delivery`)
  }
  if (lower.startsWith(SANDBOX_PREFIX)) {
    return rule('WEBHOOK_HEADER_NOT_ALLOWED', `O cabeçalho "${key}" não é permitido: os cabeçalhos X-Sandbox-* são do próprio sandbox (entrega, evento, timestamp e assinatura)`, `Header "${key}" is not allowed: X-Sandbox-* headers are the sandbox's own (delivery, event, timestamp and signature)`)
  }
  if (!HEADER_NAME.test(key)) return rule('INVALID_WEBHOOK_HEADER', `O nome de cabeçalho "${key}" é inválido (use letras, dígitos e ! # $ % & ' * + - . ^ _ \` | ~)`, `Header name "${key}" is invalid (use letters, digits and ! # $ % & ' * + - . ^ _ \` | ~)`)
  if (!HEADER_VALUE.test(value)) {
    return rule('INVALID_WEBHOOK_HEADER', `O valor do cabeçalho "${key}" é inválido: use caracteres visíveis do Latin-1 (ASCII e letras acentuadas como é, ç), com espaços ou tabulações só entre eles; quebras de linha e caracteres de controle não são aceitos`, `The value of header "${key}" is invalid: use visible Latin-1 characters (ASCII and accented letters such as é, ç), with spaces or tabs only between them; line breaks and control characters are refused`)
  }
  return null
}

export function checkHeaders (headers: readonly HeaderInput[]): Record<string, string> {
  if (headers.length > MAX_CUSTOM_HEADERS) {
    throw rule('TOO_MANY_WEBHOOK_HEADERS', `São permitidos no máximo ${MAX_CUSTOM_HEADERS} cabeçalhos personalizados (recebidos ${headers.length})`, `At most ${MAX_CUSTOM_HEADERS} custom headers are allowed (got ${headers.length})`)
  }
  const out: Record<string, string> = {}
  const seen = new Set<string>()
  for (const { key, value } of headers) {
    const problem = headerProblem(key, value)
    if (problem) throw problem
    const lower = key.toLowerCase()
    if (seen.has(lower)) throw rule('INVALID_WEBHOOK_HEADER', `O cabeçalho "${key}" foi informado mais de uma vez`, `Header "${key}" is given more than once`)
    seen.add(lower)
    out[key] = value
  }
  return out
}

/**
 * The custom headers an attempt may send: those the rules accept. A registration made before a rule
 * existed (a data file, a snapshot) keeps its headers on record, but none of them can make a delivery
 * fail inside the HTTP client or stand beside the sandbox's own.
 */
export function sendableHeaders (headers: Record<string, string>): Record<string, string> {
  let out: Record<string, string> | null = null
  for (const key in headers) {
    if (headerProblem(key, headers[key]) === null) continue
    out ??= { ...headers }
    delete out[key]
  }
  return out ?? headers
}

/**
 * The URL as stored and compared between registrations: the parser's canonical form (leading and
 * trailing spaces gone, `https://a.test` = `https://a.test/`, `0x7f.1` = `127.0.0.1`), without the
 * fragment, which never reaches the receiver.
 */
export function checkUrl (url: string, opts: RegisterOptions): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw rule('INVALID_WEBHOOK_URL', `A URL do webhook é inválida: ${url}`, `The webhook URL is invalid: ${url}`)
  }
  if (opts.httpsOnly && parsed.protocol !== 'https:') throw rule('INVALID_WEBHOOK_URL', 'A URL do webhook deve usar HTTPS', 'The webhook URL must use HTTPS')
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw rule('INVALID_WEBHOOK_URL', 'A URL do webhook deve usar http:// ou https://', 'The webhook URL must use http:// or https://')
  if (parsed.username || parsed.password) throw rule('INVALID_WEBHOOK_URL', 'A URL do webhook não pode conter usuário ou senha; use um cabeçalho personalizado', 'The webhook URL cannot carry a user or password; use a custom header')
  parsed.hash = ''
  return parsed
}

/** A stored URL in the form registrations are compared in (records stored before URLs were normalised included). */
export function sameReceiver (stored: string, normalized: string): boolean {
  if (stored === normalized) return true
  try {
    const url = new URL(stored)
    url.hash = ''
    return url.href === normalized
  } catch {
    return false
  }
}

/** Whether a receiver URL reaches the sandbox itself: as written, and by what its name resolves to. */
export interface SelfCheck {
  isSandbox (url: URL): boolean
  resolvesToSandbox (url: URL): Promise<boolean>
}

/** A receiver URL that reaches the sandbox, in both languages. */
function selfReceiver (url: URL): Refusal {
  return rule('WEBHOOK_URL_IS_SANDBOX', `A URL do webhook aponta para o próprio sandbox (${url.host}); um receptor como /__sandbox/reset agiria sobre ele. Use outra porta ou endereço, ou SANDBOX_SELF_WEBHOOKS=enabled`, `The webhook URL points at the sandbox itself (${url.host}); a receiver such as /__sandbox/reset would act on it. Use another port or address, or SANDBOX_SELF_WEBHOOKS=enabled`)
}

export class Registrations {
  /**
   * @param self whether a URL reaches the sandbox itself (always false when SANDBOX_SELF_WEBHOOKS
   *   allows such receivers)
   */
  constructor (private readonly store: Store, private readonly clock: Clock, private readonly self: SelfCheck) {}

  private get records (): Readonly<Record<string, WebhookRegistration>> {
    return this.store.data.webhooks
  }

  get (id: number): WebhookRegistration | undefined {
    return this.records[id]
  }

  list (accountId?: number): WebhookRegistration[] {
    return Object.values(this.records)
      .filter(w => accountId === undefined || w.accountId === accountId)
      .sort((a, b) => a.id - b.id)
  }

  /** Where an event of this kind goes: every active URL of the event type (docs/gateway.md §6.2 item 1). */
  activeFor (accountId: number, eventType: EventType): WebhookRegistration[] {
    // Asked on every event: one pass, no intermediate arrays (usually it finds none or one).
    const found: WebhookRegistration[] = []
    for (const id in this.records) {
      const w = this.records[id]
      if (w.accountId === accountId && w.eventType === eventType && w.isActive) found.push(w)
    }
    return found.length > 1 ? found.sort((a, b) => a.id - b.id) : found
  }

  /**
   * Adds a URL for an event type, or updates the entry that has the same URL for that event: its
   * headers are replaced, its version bumped, and it becomes active again. Other entries are untouched.
   * The URL's name is resolved first (no unit is open meanwhile); `input.incarnation`, the life of the
   * account the request's token was issued to, must still be the account's then.
   */
  async register (input: RegisterInput, opts: RegisterOptions): Promise<{ webhook: WebhookRegistration, created: boolean }> {
    // The headers first: a registration they refuse needs no lookup.
    checkHeaders(input.headers ?? [])
    const url = await this.checkReceiver(input.url, opts)
    return this.put(input, url)
  }

  private put (input: RegisterInput, url: URL): { webhook: WebhookRegistration, created: boolean } {
    const account = this.store.account(input.accountId)
    if (!account) throw new Refusal('ACCOUNT_NOT_FOUND', `Conta ${input.accountId} não encontrada`, { en: `Account ${input.accountId} not found` })
    if ('incarnation' in input && account.incarnation !== input.incarnation) {
      throw new Refusal('UNAUTHORIZED', 'A conta foi reiniciada ou substituída durante a requisição; solicite um novo token')
    }
    const normalized = url.href
    const headers = checkHeaders(input.headers ?? [])
    const sameEvent = this.list(input.accountId).filter(w => w.eventType === input.eventType)
    const existing = sameEvent.find(w => sameReceiver(w.url, normalized))
    const activeOthers = sameEvent.filter(w => w.isActive && w !== existing).length
    if (activeOthers >= MAX_ACTIVE_PER_EVENT) throw this.limitError(input.eventType)
    const now = new Date(this.clock.now()).toISOString()
    if (existing) {
      this.store.transact(() => this.store.patch('webhooks', existing.id, w => {
        w.headers = headers
        w.isActive = true
        w.version += 1
        w.updatedAt = now
      }))
      return { webhook: existing, created: false }
    }
    return this.store.transact(() => ({ webhook: this.store.add('webhooks', this.newRegistration(input, normalized, headers, now)), created: true }))
  }

  /**
   * The rules of a receiver's URL, for a registration and for a webhook of API Pix alike: http(s) (HTTPS
   * only where `opts` says), no credentials, and not the sandbox itself (unless SANDBOX_SELF_WEBHOOKS),
   * as written or by any address its name resolves to.
   */
  async checkReceiver (input: string, opts: RegisterOptions): Promise<URL> {
    const url = this.checkWritten(input, opts)
    if (await this.self.resolvesToSandbox(url)) throw selfReceiver(url)
    return url
  }

  /** The rules that read the URL as written, without resolving its name. */
  private checkWritten (input: string, opts: RegisterOptions): URL {
    const url = checkUrl(input, opts)
    if (this.self.isSandbox(url)) throw selfReceiver(url)
    return url
  }

  private newRegistration (input: RegisterInput, normalized: string, headers: Record<string, string>, now: string): WebhookRegistration {
    return {
      id: this.store.nextSeq('webhook'),
      accountId: input.accountId,
      eventType: input.eventType,
      url: normalized,
      headers,
      isActive: true,
      version: 1,
      createdAt: now,
      updatedAt: now,
    }
  }

  /** Activates or deactivates an entry, or replaces its headers (which bumps its version). */
  update (id: number, change: { isActive?: boolean, headers?: HeaderInput[] }): WebhookRegistration {
    const webhook = this.get(id)
    if (!webhook) throw new Refusal('WEBHOOK_NOT_FOUND', `Webhook ${id} não encontrado`, { en: `Webhook ${id} not found` })
    const headers = change.headers ? checkHeaders(change.headers) : undefined
    if (change.isActive === true && !webhook.isActive) {
      const active = this.activeFor(webhook.accountId, webhook.eventType).length
      if (active >= MAX_ACTIVE_PER_EVENT) throw this.limitError(webhook.eventType)
    }
    const updatedAt = new Date(this.clock.now()).toISOString()
    this.store.transact(() => this.store.patch('webhooks', id, w => {
      if (change.isActive !== undefined) w.isActive = change.isActive
      if (headers) {
        w.headers = headers
        w.version += 1
      }
      w.updatedAt = updatedAt
    }))
    return webhook
  }

  remove (id: number): boolean {
    return this.store.transact(() => this.store.remove('webhooks', id))
  }

  /**
   * Registers `url` for every event type of an account unless it is already active there: used for
   * SANDBOX_WEBHOOK_URL at every start, so restarting with --data neither duplicates it nor bumps versions.
   */
  ensure (accountId: number, eventTypes: readonly EventType[], url: string): string[] {
    const problems: string[] = []
    for (const eventType of eventTypes) {
      try {
        // At start, in a unit: the URL as written. Every attempt's connection resolves its name and refuses the sandbox's addresses.
        const checked = this.checkWritten(url, { httpsOnly: false })
        if (this.activeFor(accountId, eventType).some(w => sameReceiver(w.url, checked.href))) continue
        this.put({ accountId, eventType, url }, checked)
      } catch (err) {
        problems.push(`${eventType}: ${(err as Error).message}`)
      }
    }
    return problems
  }

  private limitError (eventType: EventType): Refusal {
    return rule('WEBHOOK_LIMIT_REACHED', `O evento ${eventType} já tem ${MAX_ACTIVE_PER_EVENT} URLs ativas; desative uma antes de cadastrar outra`, `Event ${eventType} already has ${MAX_ACTIVE_PER_EVENT} active URLs; deactivate one before adding another`)
  }
}

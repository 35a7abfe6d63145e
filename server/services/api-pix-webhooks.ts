import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, ApiPixCallback, ApiPixWebhook } from '../store/state.js'
import type { AccountKeys, Callbacks, Lifecycle, Ports } from '../ports.js'
import { KeyIndex, type Derived } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import { iso } from './history.js'

/**
 * The webhooks of BACEN's API Pix (docs/api-pix.md, webhook): configured per key the account holds
 * (PUT /webhook/{chave}), read, removed and listed; and the callback they receive, `{ "pix": [...] }`
 * posted to `{webhookUrl}/pix` when a PIX with a txid is received on the key, and when one of its
 * devoluções reaches DEVOLVIDO or NAO_REALIZADO.
 *
 * Apart from the gateway's registrations (per event type, /api/webhooks): a record kind of its own
 * (`apiPixWebhooks`), one URL per key, and the URL rules of the registrations. What the callbacks
 * carry and when is API Pix's notifier's (server/dialects/api-pix/notifier.ts): it asks this service
 * where they go, and they go out through the same delivery machinery as every event. A webhook of the
 * whole account (Pix Automático's `/webhookrec`, `/webhookcobr`) is the same record without a key, of
 * its own callback (`rec`, `cobr`), under the same URL rules.
 */

/** What a webhook is found by: its callback, and its key in canonical form (none for a webhook of the whole account). */
export interface WebhookSlot {
  callback: ApiPixCallback
  chave?: string
}

export type ApiPixWebhookDeps = Pick<Ports, 'store' | 'clock'> & { callbacks: Callbacks, keys: AccountKeys }

/**
 * Where a callback is posted: `{webhookUrl}/<callback>`, as BACEN's callback writes it and Efí does it:
 * `/pix` appended to the URL as configured, so a URL ending in a query (`?ignorar=`, Efí's documented
 * way to keep one route) keeps its path and gets `/pix` in its query. A URL without a query gets one
 * slash between (a trailing slash is not doubled).
 */
export function callbackUrl (webhookUrl: string, callback: ApiPixCallback): string {
  const url = new URL(webhookUrl)
  if (url.search !== '' || url.hash !== '') return `${webhookUrl}/${callback}`
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${callback}`
  return url.href
}

/** What names a webhook within its account: its callback and its key (none for one of the whole account). */
const slotKey = (slot: WebhookSlot): string => `${slot.callback}\u0000${slot.chave ?? ''}`

export class ApiPixWebhookService implements Lifecycle {
  /** Each account's webhooks by their slot: what a lookup, the account's list and its callbacks read, rather than every webhook. */
  private readonly bySlot: KeyIndex<'apiPixWebhooks'>
  /** The webhooks in the order they were made, of every account (`all`) and of each: the control plane's pages. */
  private readonly made: RecordLists<'apiPixWebhooks'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: ApiPixWebhookDeps) {
    this.bySlot = new KeyIndex(deps.store, 'apiPixWebhooks', { keys: slotKey, scope: w => w.accountId })
    this.made = new RecordLists(deps.store, 'apiPixWebhooks', w => ['all', String(w.accountId)])
    this.derived = [this.bySlot, this.made]
  }

  private get store () { return this.deps.store }

  /**
   * A key the account holds, in canonical form: API Pix's WebhookOperacaoInvalida for a string that is
   * no key, or a key of someone else.
   */
  heldKey (account: Account, chave: string): string {
    const key = this.deps.keys.canonical(chave)
    if (key === null) throw invalidRequest(`A chave ${chave} não é uma chave DICT válida (CPF, CNPJ, e-mail, telefone +55 ou EVP)`, { fields: ['chave'] })
    if (!this.deps.keys.holds(account, key)) {
      throw invalidRequest(`A chave ${chave} não pertence a esta conta: use o documento da conta ou uma chave do diretório com o documento e o ISPB da conta`, { fields: ['chave'] })
    }
    return key
  }

  /**
   * PUT /webhook/{chave} (and its kin): the slot's webhook, created, or given the new URL (its `criacao`
   * kept). The URL's name is resolved first, before the unit.
   */
  async configure (account: Account, slot: WebhookSlot, webhookUrl: string, opts: { skipMtlsChecking?: boolean } = {}): Promise<ApiPixWebhook> {
    let checked: URL
    try {
      checked = await this.deps.callbacks.checkReceiver(webhookUrl)
    } catch (err) {
      if (err instanceof Refusal) throw invalidRequest(err.messages, { fields: err.messages.map(() => 'webhook.webhookUrl') })
      throw err
    }
    // The receiver's mutual TLS, as Efí checks it, unless the account's switch is off (docs/webhooks.md): before the unit, like the name.
    const check = await this.deps.callbacks.checkMutualTls(checked, { skipFirst: opts.skipMtlsChecking === true, off: account.webhookMtlsCheck === false })
    // Efí's `nome` and `mensagem` ride along, for clients written for Efí's errors (docs/assumptions.md, Webhooks).
    if ('refused' in check) throw invalidRequest(check.refused.mensagem, { fields: ['webhook.webhookUrl'], details: check.refused })
    const { mtlsCheck } = check
    const url = checked.href
    const now = iso(this.deps.clock.now())
    // The lookup and the insert in one unit with no await: concurrent PUTs of one key make one webhook.
    return this.store.transact(() => {
      // A reset or an import while the name resolved ended the life of the account the request was for.
      const live = this.store.account(account.id)
      if (live === undefined || live.incarnation !== account.incarnation) {
        throw new Refusal('UNAUTHORIZED', 'A conta foi reiniciada ou substituída durante a requisição; solicite um novo token')
      }
      const existing = this.find(account.id, slot)
      if (existing === undefined) {
        const added = this.store.add('apiPixWebhooks', {
          id: this.store.nextSeq('apiPixWebhook'),
          accountId: account.id,
          callback: slot.callback,
          ...(slot.chave !== undefined ? { chave: slot.chave } : {}),
          webhookUrl: url,
          mtlsCheck,
          createdAt: now,
          updatedAt: now,
        })
        this.bySlot.follow(added)
        this.made.add(added)
        return added
      }
      if (existing.webhookUrl === url && existing.mtlsCheck === mtlsCheck) return existing
      this.store.patch('apiPixWebhooks', existing.id, w => {
        w.webhookUrl = url
        w.mtlsCheck = mtlsCheck
        w.updatedAt = now
      })
      return this.store.data.apiPixWebhooks[existing.id]
    })
  }

  /** GET /webhook/{chave}: the slot's webhook; 404 without one. */
  get (account: Account, slot: WebhookSlot): ApiPixWebhook {
    const found = this.find(account.id, slot)
    if (found === undefined) throw new Refusal('NOT_FOUND', `Nenhum webhook ${slot.callback} configurado${slot.chave !== undefined ? ` para a chave ${slot.chave}` : ''}`)
    return found
  }

  /** DELETE /webhook/{chave}: no more callbacks to it (a delivery already made keeps its retries). */
  remove (account: Account, slot: WebhookSlot): void {
    const found = this.get(account, slot)
    this.store.transact(() => {
      this.store.remove('apiPixWebhooks', found.id)
      this.bySlot.follow(found)
      // Out of its lists, so that a page holds `limit` webhooks still in the state.
      this.made.mend([found])
    })
  }

  /** A key as the account named it, in the form its webhook is kept under (any string: a lookup that finds nothing is 404). */
  keyOf (chave: string): string {
    return this.deps.keys.canonical(chave) ?? chave
  }

  /** WebhookCompleto: the URL, the key (for a webhook per key) and when it was first configured. */
  view (w: ApiPixWebhook) {
    return { webhookUrl: w.webhookUrl, ...(w.chave !== undefined ? { chave: w.chave } : {}), criacao: w.createdAt }
  }

  /** The control plane's page of webhooks, of every account or one, the last made first (`RecordLists.newestFirst`, with the same account): with where each callback is posted. */
  page (accountId: number | undefined, limit: number, cursor?: number) {
    const { records, nextCursor } = this.made.newestFirst(accountId === undefined ? 'all' : String(accountId), limit, cursor)
    const webhooks = records.map(x => ({ ...this.view(x), accountId: x.accountId, callback: x.callback, callbackUrl: callbackUrl(x.webhookUrl, x.callback), ...(x.mtlsCheck !== undefined ? { mtlsCheck: x.mtlsCheck } : {}) }))
    return { webhooks, ...(nextCursor !== undefined ? { nextCursor } : {}) }
  }

  /** The account's webhooks of a callback, oldest first (GET /webhook lists them). */
  ofAccount (accountId: number, callback: ApiPixCallback): ApiPixWebhook[] {
    return [...this.bySlot.indexed(accountId)].filter(w => w.callback === callback).sort((a, b) => a.id - b.id)
  }

  private find (accountId: number, slot: WebhookSlot): ApiPixWebhook | undefined {
    return this.bySlot.record(slotKey(slot), accountId)
  }

  // ---- where the callbacks go --------------------------------------------------------------------

  /** Whether any account has a webhook at all: most events then need no lookup. */
  hasWebhooks (): boolean {
    return !this.bySlot.empty()
  }

  /** Where the webhook of an account's key posts its `pix` callback, when the key has one. */
  pixCallbackUrl (accountId: number, chave: string): string | undefined {
    const webhook = this.find(accountId, { callback: 'pix', chave: this.keyOf(chave) })
    return webhook === undefined ? undefined : callbackUrl(webhook.webhookUrl, 'pix')
  }

  /** The URLs the account's webhooks of a callback post it to, oldest webhook first (`/webhookcobr`, `/webhookrec`: one at most). */
  callbackUrls (accountId: number, callback: ApiPixCallback): string[] {
    return this.ofAccount(accountId, callback).map(w => callbackUrl(w.webhookUrl, callback))
  }
}

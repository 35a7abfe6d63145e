import { Refusal, invalidRequest } from '../errors/refusal.js'
import { isKind, REFUND_KINDS, type Account, type ApiPixCallback, type ApiPixWebhook, type Transaction } from '../store/state.js'
import type { WebhookEvent } from '../webhooks/types.js'
import { pixCallback } from '../webhooks/envelopes/api-pix.js'
import type { PixCallback } from '../schemas/webhooks.js'
import type { AccountCallbacks, AccountKeys, Callbacks, Ports, ReceivedPixViews } from '../ports.js'
import { receivedOf } from './charge-records.js'
import { page, windowOf, within } from './central-bank-reads.js'
import { iso } from './history.js'

/**
 * The webhooks of BACEN's API Pix (docs/api-pix.md, webhook): configured per key the account holds
 * (PUT /webhook/{chave}), read, removed and listed; and the callback they receive, `{ "pix": [...] }`
 * posted to `{webhookUrl}/pix` when a PIX with a txid is received on the key, and when one of its
 * devoluções reaches DEVOLVIDO or NAO_REALIZADO.
 *
 * Apart from the gateway's registrations (per event type, /api/webhooks): a record kind of its own
 * (`apiPixWebhooks`), one URL per key, and the URL rules of the registrations. The callbacks follow
 * the events the capabilities emit (a paid charge's `cash_in`, a settled refund's `refund_in`, an
 * approved MED's `med_accepted`) and go out through the same delivery machinery: signed, retried,
 * logged, bent by the delivery faults the event carries. A webhook of the whole account (Pix
 * Automático's `/webhookrec`, `/webhookcobr`) is the same record without a key, of its own callback
 * (`rec`, `cobr`), under the same URL rules.
 */

/** What a webhook is found by: its callback, and its key in canonical form (none for a webhook of the whole account). */
export interface WebhookSlot {
  callback: ApiPixCallback
  chave?: string
}

/** GET /webhook's parameters: both bounds optional (on `criacao`), and paging. */
export interface WebhookFilter {
  inicio?: string
  fim?: string
  'paginacao.paginaAtual'?: number
  'paginacao.itensPorPagina'?: number
}

/** The received PIX as the callback carries them, and the key each was paid to. */
export interface KeyedPixViews extends ReceivedPixViews<PixCallback['pix'][number]> {
  chaveOf (tx: Transaction): string | undefined
}

export type ApiPixWebhookDeps = Pick<Ports, 'store' | 'clock'> & { callbacks: Callbacks, keys: AccountKeys, pix: KeyedPixViews }

/** Where a callback is posted: `{webhookUrl}/<callback>`, one slash between, the URL's query kept. */
export function callbackUrl (webhookUrl: string, callback: ApiPixCallback): string {
  const url = new URL(webhookUrl)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${callback}`
  return url.href
}

export class ApiPixWebhookService implements AccountCallbacks {
  constructor (private readonly deps: ApiPixWebhookDeps) {}

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
  async configure (account: Account, slot: WebhookSlot, webhookUrl: string): Promise<ApiPixWebhook> {
    let url: string
    try {
      url = (await this.deps.callbacks.checkReceiver(webhookUrl)).href
    } catch (err) {
      if (err instanceof Refusal) throw invalidRequest(err.messages, { fields: err.messages.map(() => 'webhook.webhookUrl') })
      throw err
    }
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
        return this.store.add('apiPixWebhooks', {
          id: this.store.nextSeq('apiPixWebhook'),
          accountId: account.id,
          callback: slot.callback,
          ...(slot.chave !== undefined ? { chave: slot.chave } : {}),
          webhookUrl: url,
          createdAt: now,
          updatedAt: now,
        })
      }
      if (existing.webhookUrl === url) return existing
      this.store.patch('apiPixWebhooks', existing.id, w => {
        w.webhookUrl = url
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
    this.store.transact(() => this.store.remove('apiPixWebhooks', found.id))
  }

  /** A key as the account named it, in the form its webhook is kept under (any string: a lookup that finds nothing is 404). */
  keyOf (chave: string): string {
    return this.deps.keys.canonical(chave) ?? chave
  }

  /** WebhookCompleto: the URL, the key (for a webhook per key) and when it was first configured. */
  view (w: ApiPixWebhook) {
    return { webhookUrl: w.webhookUrl, ...(w.chave !== undefined ? { chave: w.chave } : {}), criacao: w.createdAt }
  }

  /** Every webhook, of every account or one, newest first, for the control plane: with where its callback is posted. */
  all (accountId?: number) {
    return Object.values(this.store.data.apiPixWebhooks)
      .filter(x => accountId === undefined || x.accountId === accountId)
      .sort((a, b) => b.id - a.id)
      .map(x => ({ ...this.view(x), accountId: x.accountId, callback: x.callback, callbackUrl: callbackUrl(x.webhookUrl, x.callback) }))
  }

  /** GET /webhook (and its kin): the account's webhooks of a callback configured within [inicio, fim], oldest first, paged. */
  list (account: Account, callback: ApiPixCallback, q: WebhookFilter) {
    const w = windowOf(q)
    const webhooks = Object.values(this.store.data.apiPixWebhooks)
      .filter(x => x.accountId === account.id && x.callback === callback && within(x.createdAt, w))
      .sort((a, b) => a.id - b.id)
    const { items, paginacao } = page(webhooks, q)
    return {
      parametros: { ...(q.inicio !== undefined ? { inicio: q.inicio } : {}), ...(q.fim !== undefined ? { fim: q.fim } : {}), paginacao },
      webhooks: items.map(x => this.view(x)),
    }
  }

  private find (accountId: number, slot: WebhookSlot): ApiPixWebhook | undefined {
    const records = this.store.data.apiPixWebhooks
    for (const id in records) {
      const w = records[id]
      if (w.accountId === accountId && w.callback === slot.callback && w.chave === slot.chave) return w
    }
    return undefined
  }

  // ---- the callback ---------------------------------------------------------------------------

  /**
   * An event a capability emitted: when it is about a PIX with a txid received on a key with a webhook
   * (paid, or one of its devoluções ended), the PIX goes to `{webhookUrl}/pix`, in the emitting unit.
   */
  follow (event: WebhookEvent): void {
    if (event.transactionId == null || !this.anyWebhook()) return
    const tx = this.pixOf(event, event.transactionId)
    const chave = tx && this.deps.pix.chaveOf(tx)
    if (tx === undefined || chave === undefined) return
    const webhook = this.find(tx.accountId, { callback: 'pix', chave: this.keyOf(chave) })
    if (webhook === undefined) return
    this.deps.callbacks.deliver({
      accountId: tx.accountId,
      eventType: 'pix',
      transactionId: tx.id,
      payload: pixCallback([this.deps.pix.view(tx)]),
      ...(event.scenarios !== undefined ? { scenarios: event.scenarios } : {}),
    }, callbackUrl(webhook.webhookUrl, 'pix'))
  }

  /** AccountCallbacks: a callback to the account's webhook of the whole account for it (`/webhookcobr`, `/webhookrec`), when it has one. */
  notify<E extends ApiPixCallback> (event: WebhookEvent<E>): boolean {
    const webhook = this.find(event.accountId, { callback: event.eventType })
    if (webhook === undefined) return false
    this.deps.callbacks.deliver(event, callbackUrl(webhook.webhookUrl, event.eventType))
    return true
  }

  /** AccountCallbacks: the URLs the account's webhooks of a callback post it to, oldest webhook first. */
  callbackUrls (accountId: number, callback: ApiPixCallback): string[] {
    return Object.values(this.store.data.apiPixWebhooks)
      .filter(w => w.accountId === accountId && w.callback === callback)
      .sort((a, b) => a.id - b.id)
      .map(w => callbackUrl(w.webhookUrl, callback))
  }

  private anyWebhook (): boolean {
    return Object.keys(this.store.data.apiPixWebhooks).length > 0
  }

  /** The received PIX an event is about: paid (`cash_in`), or one of its devoluções ended (`refund_in`, an approved MED's). */
  private pixOf (event: WebhookEvent, transactionId: string): Transaction | undefined {
    const tx = this.store.transaction(transactionId)
    if (tx === undefined) return undefined
    switch (event.eventType) {
      case 'cash_in': return receivedOf(tx) !== undefined ? tx : undefined
      case 'refund_in': {
        const original = isKind(tx, REFUND_KINDS) ? this.store.transaction(tx.data.originalId) : undefined
        return original !== undefined && receivedOf(original) !== undefined ? original : undefined
      }
      case 'med_accepted': {
        const payload = event.payload
        const refunded = 'type' in payload && payload.type === 'MED' && payload.data.refund != null
        return refunded && receivedOf(tx) !== undefined ? tx : undefined
      }
      default: return undefined
    }
  }
}

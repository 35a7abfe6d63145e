// The pix-sandbox dashboard: one vanilla module, no framework, no build step, no network beyond the
// sandbox. Everything it shows comes from the /__sandbox control plane and is put in the DOM as text
// (createElement + textContent), never as HTML, so a payer called "<img onerror=...>" stays a name.

// Served by the dashboard route from the server's lists (domain/async-errors.ts; the event types a
// webhook registration takes, store/records.ts).
import { ASYNC_ERROR_CODES, DELIVERY_TYPES, EVENT_TYPES } from './lists.js'

const POLL_MS = 1000
const ADMIN_KEY = 'pix-sandbox-admin-token'
const KNOWN_STATUSES = ['PENDING', 'CONFIRMED', 'ERROR', 'LIQUIDATED', 'COMPLETED', 'ATIVA', 'CONCLUIDA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP', 'EXPIRED', 'EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']
/** Final statuses in which no money moved: a payment or refund that failed, a charge removed or expired. */
const NOTHING_MOVED = new Set(['ERROR', 'NAO_REALIZADO', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP', 'EXPIRED'])
/** Statuses of a charge that can still be paid. */
const PENDING = new Set(['PENDING', 'EM_PROCESSAMENTO', 'ATIVA'])
const CHARGE_KINDS = new Set(['CASH_IN', 'COB', 'COBV'])
const VIEWS = ['transactions', 'webhooks', 'deliveries', 'requests', 'med', 'apipix', 'mercadopago', 'clock', 'scenarios', 'report']
const CHECK_STATUS = { passed: 'passed', failed: 'failed', not_exercised: 'not exercised', not_applicable: 'not applicable' }

// ---------------------------------------------------------------------------------------------------
// DOM helpers: the only way this file creates elements. Strings become text nodes, always.

/**
 * el('button', { class: 'x', onclick: fn, 'aria-label': 'y' }, 'text', child)
 * Attributes named on* become listeners; `text` sets textContent; everything else is setAttribute
 * (skipped when null/undefined/false). Children: nodes, strings (as text), arrays, or nullish (ignored).
 */
function el (tag, attrs = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value)
    else if (key === 'text') node.textContent = String(value)
    else if (key === 'value') node.value = String(value)
    else if (key === 'dataset') Object.assign(node.dataset, value)
    else node.setAttribute(key, value === true ? '' : String(value))
  }
  append(node, children)
  return node
}

function append (node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    node.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return node
}

const $ = (selector, root = document) => root.querySelector(selector)
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)]

function clear (node) {
  while (node.firstChild) node.firstChild.remove()
  return node
}

/**
 * Rebuilds `container` with `build()` while keeping what a person was doing in it: the values typed
 * in named controls, open <details>, and the focused control. Polling never wipes a half-filled form.
 */
function preserving (container, build) {
  const values = new Map()
  for (const c of $$('input[name], select[name], textarea[name]', container)) {
    if (c.type === 'checkbox') values.set(c.name, c.checked)
    else values.set(c.name, c.value)
  }
  const open = new Set($$('details[data-key]', container).filter(d => d.open).map(d => d.dataset.key))
  const active = document.activeElement
  const focusKey = active && container.contains(active) ? (active.getAttribute('name') ?? active.dataset.key) : null
  clear(container)
  append(container, [build()])
  for (const c of $$('input[name], select[name], textarea[name]', container)) {
    if (!values.has(c.name)) continue
    if (c.type === 'checkbox') c.checked = values.get(c.name)
    else if (c.tagName !== 'SELECT' || [...c.options].some(o => o.value === values.get(c.name))) c.value = values.get(c.name)
  }
  for (const d of $$('details[data-key]', container)) if (open.has(d.dataset.key)) d.open = true
  if (focusKey) {
    const target = $$('[name], [data-key]', container).find(n => (n.getAttribute('name') ?? n.dataset.key) === focusKey)
    target?.focus({ preventScroll: true })
  }
}

// ---------------------------------------------------------------------------------------------------
// Formatting

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })
const money = (value) => (typeof value === 'number' ? brl.format(value) : '—')
/** The control plane shows transaction amounts in BRL (`amount`, `fee`); stored records carry cents. */
const txAmount = (tx) => (typeof tx.amount === 'number' ? tx.amount : typeof tx.amountCents === 'number' ? tx.amountCents / 100 : null)
const txFee = (tx) => (typeof tx.fee === 'number' ? tx.fee : typeof tx.feeCents === 'number' ? tx.feeCents / 100 : 0)
const timeFmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset',
})
/**
 * A time as every place a person reads one shows it (the CLI and the console too): São Paulo wall time
 * with its offset, `2026-11-25 22:26:47 -03:00`; the API's own (UTC) stays in the raw records.
 */
function when (iso) {
  if (!iso) return '—'
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return String(iso)
  const p = Object.fromEntries(timeFmt.formatToParts(t).map(x => [x.type, x.value]))
  // `GMT-03:00` (with a minus sign, U+2212, in some engines); plain `GMT` at offset zero.
  const offset = p.timeZoneName.replace('GMT', '').replace('\u2212', '-') || '+00:00'
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${offset}`
}
function timeEl (iso) {
  return el('time', { datetime: iso ?? undefined, text: when(iso) })
}
function duration (ms) {
  const abs = Math.abs(ms)
  const sign = ms < 0 ? '-' : ''
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`
  if (abs < 120_000) return `${sign}${(abs / 1000).toFixed(1)} s`
  if (abs < 7_200_000) return `${sign}${Math.round(abs / 60_000)} min`
  if (abs < 172_800_000) return `${sign}${(abs / 3_600_000).toFixed(1)} h`
  return `${sign}${(abs / 86_400_000).toFixed(1)} days`
}
const json = (value) => JSON.stringify(value, null, 2)
const badge = (status) => el('span', { class: 'badge', 'data-status': String(status ?? '') }, String(status ?? '—'))

function facts (pairs) {
  const dl = el('dl', { class: 'facts' })
  for (const [label, value] of pairs) {
    if (value === undefined || value === null || value === '') continue
    dl.append(el('dt', {}, label), el('dd', {}, value instanceof Node ? value : String(value)))
  }
  return dl
}

// ---------------------------------------------------------------------------------------------------
// The control plane

class ApiFailure extends Error {
  constructor (status, body) {
    const message = Array.isArray(body?.message) ? body.message.join('; ') : (body?.message ?? `HTTP ${status}`)
    super(message)
    this.status = status
    this.code = body?.code ?? null
    this.body = body
  }
}

async function api (method, path, body) {
  // Marks the dashboard's calls: its refreshes stay out of the request journal and log at debug only.
  const headers = { accept: 'application/json', 'x-sandbox-client': 'dashboard' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const admin = sessionStorage.getItem(ADMIN_KEY)
  if (admin) headers['x-sandbox-admin-token'] = admin
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' })
  const text = await res.text()
  let data = null
  try { data = text ? JSON.parse(text) : null } catch { data = { message: text } }
  if (!res.ok) {
    // Only a refusal of the token still in use asks for one: a poll sent before the person gave the
    // token may be answered after, and its refusal says nothing of the token given.
    if (res.status === 401 && data?.code === 'ADMIN_TOKEN_REQUIRED' && admin === sessionStorage.getItem(ADMIN_KEY)) $('#admin-form').hidden = false
    throw new ApiFailure(res.status, data)
  }
  return data
}

const qs = (params) => {
  const search = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v))
  const s = search.toString()
  return s ? `?${s}` : ''
}

/** The first array in a list response, whatever its envelope calls it ({ transactions }, { data }...). */
function listOf (data, ...names) {
  if (Array.isArray(data)) return data
  for (const name of names) if (Array.isArray(data?.[name])) return data[name]
  const first = data && Object.values(data).find(Array.isArray)
  return first ?? []
}

/** Runs an action from a button: disables it meanwhile, shows the API's message in `errorNode`. */
async function act (button, errorNode, fn, done) {
  if (errorNode) errorNode.textContent = ''
  if (button) button.disabled = true
  try {
    const result = await fn()
    if (done) toast(typeof done === 'function' ? done(result) : done)
    await tick(true)
    return result
  } catch (err) {
    const message = err instanceof ApiFailure ? err.message : `Could not reach the sandbox: ${err.message}`
    if (errorNode) errorNode.textContent = message
    else toast(message)
    return undefined
  } finally {
    if (button) button.disabled = false
  }
}

let toastTimer = 0
function toast (message) {
  const node = $('#toast')
  node.textContent = message
  node.dataset.show = 'true'
  clearTimeout(toastTimer)
  toastTimer = setTimeout(() => { node.dataset.show = 'false' }, 3500)
}

// ---------------------------------------------------------------------------------------------------
// State kept by the page (never a second source of truth: it is what the last poll answered).

const state = {
  view: 'transactions',
  accountId: null,
  accounts: [],
  clock: null,
  catalogue: null,
  expanded: { tx: new Set(), dl: new Set(), rq: new Set(), med: new Set(), 'ap-cob': new Set(), 'ap-cobv': new Set(), 'ap-lotecobv': new Set(), 'ap-webhook': new Set(), 'ap-loc': new Set(), 'ap-rec': new Set(), mp: new Set() },
  /** Registration ids whose header editor is open / whose delete awaits confirmation. */
  editing: new Set(),
  confirmingDelete: new Set(),
  txDeliveries: new Map(),
  /** The static code of each recurrence's contract last asked for, with the location it carries. */
  recStaticCodes: new Map(),
  /** How many pages of each paged block shows (the last made first: API Pix's recurrences, batches, cobvs, webhooks and locations, Mercado Pago's payments), and whether older ones remain. */
  paging: { rec: { pages: 1, older: false }, lotecobv: { pages: 1, older: false }, cobv: { pages: 1, older: false }, webhook: { pages: 1, older: false }, loc: { pages: 1, older: false }, mp: { pages: 1, older: false } },
  /** The control plane's last refusal of an action of an API Pix block, until the next one. */
  apRefusals: {},
  rowSig: new WeakMap(),
  seenStatuses: new Set(KNOWN_STATUSES),
}

function readLocation () {
  const view = location.hash.replace(/^#\/?/, '').split(/[?/]/)[0]
  state.view = VIEWS.includes(view) ? view : 'transactions'
  const id = Number(new URLSearchParams(location.search).get('account'))
  state.accountId = Number.isInteger(id) && id > 0 ? id : null
}

function writeAccount (id) {
  state.accountId = id
  // Another account's paged lists (recurrences, batches, cobvs, webhooks, locations, payments) start again from their last page.
  for (const paging of Object.values(state.paging)) paging.pages = 1
  const url = new URL(location.href)
  if (id) url.searchParams.set('account', String(id))
  else url.searchParams.delete('account')
  history.replaceState(null, '', url)
}

// ---------------------------------------------------------------------------------------------------
// Header: accounts, balance, clock

function renderAccounts () {
  const select = $('#account')
  const sig = JSON.stringify(state.accounts.map(a => [a.accountId, a.name]))
  if (select.dataset.sig !== sig) {
    select.dataset.sig = sig
    const keep = state.accountId
    clear(select).append(el('option', { value: '' }, 'All accounts'))
    for (const a of state.accounts) select.append(el('option', { value: String(a.accountId) }, `#${a.accountId} · ${a.name}`))
    if (keep && !state.accounts.some(a => a.accountId === keep)) select.append(el('option', { value: String(keep) }, `#${keep} (not found)`))
  }
  select.value = state.accountId ? String(state.accountId) : ''
  document.body.dataset.account = state.accountId ? 'one' : 'all'
}

function renderBalance () {
  const section = $('#balance')
  const account = state.accounts.find(a => a.accountId === state.accountId)
  const sig = JSON.stringify(state.accountId ? [account?.balance ?? null, account?.mercadoPago ?? null, account?.webhookMtlsCheck ?? null] : state.accounts.map(a => [a.accountId, a.name, a.balance, a.invariantHolds])) + (account?.invariantHolds ?? '')
  if (section.dataset.sig === sig) return
  section.dataset.sig = sig
  clear(section)
  if (state.accountId) {
    if (!account) {
      section.append(el('p', { class: 'error' }, `Account ${state.accountId} not found.`))
      return
    }
    const figure = (label, key) => el('div', { class: 'figure', 'data-balance': key },
      el('span', { class: 'label' }, label), el('span', { class: 'amount', 'data-testid': `balance-${key}` }, money(account.balance[key])))
    section.append(
      el('h2', { class: 'visually-hidden' }, 'Balance'),
      figure('Available', 'available'), figure('Blocked', 'blocked'), figure('Gross', 'gross'),
      el('p', { class: account.invariantHolds ? 'invariant ok' : 'invariant broken' },
        account.invariantHolds ? 'Ledger adds up' : 'Ledger invariant broken'),
      // The account's switch of the mutual TLS check of its API Pix webhooks (docs/webhooks.md, mutual TLS).
      el('p', { class: 'muted', 'data-testid': 'webhook-mtls-check', title: 'PATCH /__sandbox/accounts/{id} { "webhookMtlsCheck": true | false }' },
        account.webhookMtlsCheck === false ? 'API Pix webhooks: mTLS check off' : 'API Pix webhooks: mTLS checked'),
      // Mercado Pago's credentials of the account (docs/mercado-pago.md): what its SDK is configured with.
      ...(account.mercadoPago
        ? [el('details', { class: 'credentials', 'data-testid': 'mercado-pago-credentials' },
            el('summary', {}, 'Mercado Pago credentials'),
            el('dl', {}, [['Access token', 'accessToken'], ['Public key', 'publicKey'], ['User id', 'userId'], ['Webhook secret', 'webhookSecret'], ['Webhook URL', 'webhookUrl']]
              .flatMap(([label, key]) => [el('dt', {}, label), el('dd', { 'data-credential': key }, String(account.mercadoPago[key] ?? 'none'))])))]
        : [])
    )
    return
  }
  const table = el('table', { class: 'accounts' },
    el('caption', { class: 'visually-hidden' }, 'Balance of every account'),
    el('thead', {}, el('tr', {}, ['Account', 'Available', 'Blocked', 'Gross', 'Ledger'].map(h => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, state.accounts.map(a => el('tr', {},
      el('th', { scope: 'row' }, el('a', { href: `?account=${a.accountId}${location.hash}`, 'data-account': String(a.accountId) }, `#${a.accountId} · ${a.name}`)),
      el('td', { class: 'num' }, money(a.balance.available)),
      el('td', { class: 'num' }, money(a.balance.blocked)),
      el('td', { class: 'num' }, money(a.balance.gross)),
      el('td', {}, a.invariantHolds ? 'ok' : 'BROKEN')
    ))))
  section.append(el('div', { class: 'scroll' }, table))
}

function renderClockBadge () {
  const c = state.clock
  if (!c) return
  $('#clock-badge').textContent = `${when(c.now)} · ${c.frozen ? 'frozen' : 'running'}`
  $('#clock-badge').dataset.frozen = String(c.frozen)
}

// ---------------------------------------------------------------------------------------------------
// Keyed lists: one <li> per record, rebuilt only when its record changed, so expanded rows, focus
// and typed values survive the poll.

function renderRows (list, records, keyOf, buildRow, sigOf) {
  const existing = new Map($$(':scope > li', list).map(li => [li.dataset.key, li]))
  let previous = null
  for (const record of records) {
    const key = String(keyOf(record))
    const sig = sigOf(record)
    let li = existing.get(key)
    if (li) {
      existing.delete(key)
      if (state.rowSig.get(li) !== sig) preserving(li, () => buildRow(record))
    } else {
      li = el('li', { class: 'row', 'data-key': key })
      append(li, [buildRow(record)])
    }
    state.rowSig.set(li, sig)
    const anchor = previous ? previous.nextSibling : list.firstChild
    if (li !== anchor) list.insertBefore(li, anchor)
    previous = li
  }
  for (const li of existing.values()) li.remove()
}

function toggler (kind, key, label, summaryChildren) {
  const open = state.expanded[kind].has(key)
  const detailId = `${kind}-detail-${key}`
  return el('button', {
    type: 'button',
    class: 'row-summary',
    'aria-expanded': String(open),
    'aria-controls': detailId,
    'aria-label': label,
    'data-key': `toggle-${key}`,
    onclick: (event) => {
      const set = state.expanded[kind]
      if (set.has(key)) set.delete(key)
      else set.add(key)
      const li = event.currentTarget.closest('li')
      state.rowSig.delete(li)
      tick(true)
    },
  }, summaryChildren)
}

// ---------------------------------------------------------------------------------------------------
// Transactions

function pixCodeOf (tx) {
  const d = tx.data ?? {}
  for (const k of ['pixCopiaECola', 'pixCode', 'brCode', 'emv', 'qrCode', 'copyPaste', 'qrcode', 'code']) {
    if (typeof d[k] === 'string' && d[k].startsWith('000201')) return d[k]
  }
  const stack = [d]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'string' && v.startsWith('000201') && v.length <= 500) return v
    if (v && typeof v === 'object') stack.push(...Object.values(v))
  }
  return null
}

function qrImageOf (tx) {
  const d = tx.data ?? {}
  for (const k of ['qrCodeImage', 'qrCodeBase64', 'imagemQrcode', 'image']) {
    const v = d[k]
    if (typeof v === 'string' && v.startsWith('data:image/png;base64,')) return v
    if (typeof v === 'string' && /^[A-Za-z0-9+/=]{100,}$/.test(v)) return `data:image/png;base64,${v}`
  }
  return null
}

function txLabel (tx) {
  return `${tx.kind} ${tx.status} ${money(txAmount(tx))}`
}

function txCounterpart (tx) {
  const c = tx.counterpart
  if (c?.name) return c.name
  const d = tx.data ?? {}
  const payer = d.payer ?? d.debtor ?? d.devedor
  if (payer && typeof payer === 'object') return payer.name ?? payer.fullName ?? payer.nome ?? ''
  return tx.pixKey ?? tx.externalId ?? ''
}

/** What the row says of the money: a debit or a credit with its fee, or, where nothing moved, that nothing did. */
function txMoney (tx) {
  if (NOTHING_MOVED.has(tx.status)) {
    return [
      el('span', { class: 'cell amount', 'data-direction': tx.direction, 'data-moved': 'false' }, money(txAmount(tx))),
      el('span', { class: 'cell fee' }, tx.direction === 'OUT' ? 'not debited' : 'not credited'),
    ]
  }
  return [
    el('span', { class: 'cell amount', 'data-direction': tx.direction }, `${tx.direction === 'OUT' ? '−' : '+'}${money(txAmount(tx))}`),
    el('span', { class: 'cell fee' }, txFee(tx) ? `fee ${money(txFee(tx))}` : ''),
  ]
}

function buildTx (tx) {
  const key = tx.id
  const open = state.expanded.tx.has(key)
  const summary = toggler('tx', key, `Transaction ${txLabel(tx)}; show details`, [
    el('span', { class: 'cell when' }, when(tx.createdAt)),
    el('span', { class: 'cell kind' }, tx.kind),
    badge(tx.status),
    txMoney(tx),
    // A holder the sandbox invented for a key its directory does not list says so first, where a long name cannot cut it off.
    el('span', { class: 'cell who', 'data-testid': 'counterpart' }, tx.counterpart?.generated ? [el('span', { class: 'tag', title: 'invented by the sandbox: the key is not in its directory' }, 'generated'), ' '] : null, txCounterpart(tx)),
    state.accountId ? null : el('span', { class: 'cell acct' }, `#${tx.accountId}`),
  ])
  return [summary, open ? buildTxDetail(tx) : null]
}

function buildTxDetail (tx) {
  const detail = el('div', { class: 'row-detail', id: `tx-detail-${tx.id}` })
  const error = el('p', { class: 'error', role: 'alert' })
  const c = tx.counterpart
  detail.append(facts([
    ['Transaction id', el('code', {}, tx.id)],
    ['Number', tx.seq],
    ['Account', `#${tx.accountId}`],
    ['Direction', tx.direction],
    ['Status', badge(tx.status)],
    ['Amount', money(txAmount(tx))],
    ['Fee', NOTHING_MOVED.has(tx.status) && txFee(tx) ? `${money(txFee(tx))}, not charged: nothing moved` : money(txFee(tx))],
    ['External id', tx.externalId],
    ['End-to-end id', tx.endToEndId ? el('code', {}, tx.endToEndId) : null],
    ['Description', tx.description],
    ['PIX key', tx.pixKey],
    ['Counterpart', c ? [c.name, c.document, c.bankName ?? c.ispb].filter(Boolean).join(' · ') : txCounterpart(tx)],
    ['Holder', c?.generated ? 'generated by the sandbox: the key is not in its directory (PUT /__sandbox/directory/:key lists one)' : null],
    ['Error', tx.errorCode ? `${tx.errorCode}${tx.errorMessage ? `: ${tx.errorMessage}` : ''}` : null],
    ['Created', timeEl(tx.createdAt)],
    ['Updated', timeEl(tx.updatedAt)],
    ['Due', tx.dueAt ? timeEl(tx.dueAt) : null],
  ]))

  const code = pixCodeOf(tx)
  if (CHARGE_KINDS.has(tx.kind) && code) detail.append(buildCharge(tx, code, error))

  // The API says which steering actions this record takes (a pending cash-in is paid, never settled).
  const actions = Array.isArray(tx.actions) ? tx.actions : []
  if (actions.includes('settle')) {
    const failSelect = el('select', { name: 'fail-code', id: `fail-${tx.id}` }, ASYNC_ERROR_CODES.map(c => el('option', { value: c }, c)))
    detail.append(el('div', { class: 'actions', role: 'group', 'aria-label': 'Actions on this pending transaction' },
      el('button', {
        type: 'button',
        'data-key': 'settle',
        onclick: (e) => act(e.currentTarget, error, () => api('POST', `/__sandbox/transactions/${encodeURIComponent(tx.id)}/settle`, {}), 'Transaction settled'),
      }, 'Settle'),
      el('span', { class: 'inline-field' },
        el('label', { for: `fail-${tx.id}` }, 'Error code'), failSelect),
      el('button', {
        type: 'button',
        class: 'danger',
        'data-key': 'fail',
        onclick: (e) => act(e.currentTarget, error, () => api('POST', `/__sandbox/transactions/${encodeURIComponent(tx.id)}/fail`, { errorCode: failSelect.value }), `Transaction failed with ${failSelect.value}`),
      }, 'Fail')
    ))
  }
  detail.append(error)

  detail.append(el('h4', {}, 'History'))
  const history = Array.isArray(tx.history) ? tx.history : []
  detail.append(history.length
    ? el('ol', { class: 'history' }, history.map(h => el('li', {}, badge(h.status), ' ', timeEl(h.at), h.reason ? el('span', { class: 'muted' }, ` · ${h.reason}`) : null)))
    : el('p', { class: 'muted' }, 'No history.'))

  detail.append(el('h4', {}, 'Webhooks'), deliveryList(tx.id, 'No webhook for this transaction.', `Webhooks of transaction ${tx.id}`))
  detail.append(el('h4', {}, 'Requests'))
  detail.append(el('p', {}, el('a', { href: '#requests', 'data-key': `requests-${tx.id}`, onclick: () => { $('#rq-tx').value = tx.id } }, 'Show the requests that made and read it')))
  detail.append(el('details', { 'data-key': `raw-${tx.id}` }, el('summary', {}, 'Raw record'), el('pre', {}, json(tx))))
  return detail
}

/**
 * A transaction's deliveries as loaded (state.txDeliveries), each linked to the Deliveries view, with
 * its body's `action` where it has one (Mercado Pago's); `none` says why there are none.
 */
function deliveryList (transactionId, none, label) {
  const deliveries = state.txDeliveries.get(transactionId)
  if (!deliveries) return el('p', { class: 'muted' }, 'Loading…')
  if (!deliveries.length) return el('p', { class: 'muted' }, none)
  return el('ul', { class: 'mini', 'aria-label': label }, deliveries.map(d => el('li', { 'data-delivery': d.id },
    el('code', {}, d.eventType), ' ', typeof d.body?.action === 'string' ? [el('span', { class: 'muted' }, d.body.action), ' '] : null,
    badge(d.status), ' ', el('span', { class: 'url' }, d.url ?? '(no receiver)'),
    el('span', { class: 'muted' }, ` · ${d.attempts?.length ?? 0} attempt(s)${lastAttempt(d)}`), ' ',
    el('a', { href: '#deliveries', onclick: () => { $('#dl-tx').value = transactionId; state.expanded.dl.add(d.id) } }, 'Open in Deliveries'))))
}

function lastAttempt (d) {
  const a = d.attempts?.[d.attempts.length - 1]
  if (!a) return ''
  return a.statusCode ? `, last answered ${a.statusCode}` : (a.error ? `, last: ${a.error}` : '')
}

/**
 * A BR Code as a payer takes it: its QR image, and its text to select with a button that copies it
 * (or selects it where the page may not write the clipboard). `testid` names the text for the tests.
 */
function codeBox (id, code, alt, image = `/dashboard/qrcode.png?code=${encodeURIComponent(code)}`, testid = 'pix-code') {
  return el('div', { class: 'charge' },
    el('img', { src: image, alt, width: 200, height: 200, class: 'qr' }),
    el('div', { class: 'charge-text' },
      el('label', { for: id }, 'PIX copy and paste code'),
      el('textarea', { id, readonly: true, rows: 4, spellcheck: 'false', class: 'code', 'data-testid': testid }, code),
      el('button', {
        type: 'button',
        class: 'secondary',
        'data-key': `copy-${id}`,
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(code)
            toast('Code copied')
          } catch {
            const area = $(`#${CSS.escape(id)}`)
            area.focus()
            area.select()
            toast('Code selected: press Ctrl+C to copy')
          }
        },
      }, 'Copy code')
    ))
}

function buildCharge (tx, code, error) {
  const box = codeBox(`code-${tx.id}`, code, `QR code of the charge of ${money(txAmount(tx))}`, qrImageOf(tx) ?? undefined)
  if (PENDING.has(tx.status)) {
    const form = el('form', { class: 'pay form', novalidate: true, 'aria-label': 'Pay this charge' },
      el('div', { class: 'field' }, el('label', { for: `pay-amount-${tx.id}` }, 'Amount (BRL, optional)'),
        el('input', { id: `pay-amount-${tx.id}`, name: 'pay-amount', type: 'text', inputmode: 'decimal', autocomplete: 'off', placeholder: txAmount(tx)?.toFixed(2) })),
      el('div', { class: 'field' }, el('label', { for: `pay-name-${tx.id}` }, 'Payer name'),
        el('input', { id: `pay-name-${tx.id}`, name: 'pay-name', type: 'text', autocomplete: 'off' })),
      el('div', { class: 'field' }, el('label', { for: `pay-doc-${tx.id}` }, 'Payer CPF/CNPJ'),
        el('input', { id: `pay-doc-${tx.id}`, name: 'pay-doc', type: 'text', autocomplete: 'off', inputmode: 'numeric' })),
      el('div', { class: 'actions' }, el('button', { type: 'submit', 'data-key': 'pay' }, 'Pay'))
    )
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      const amountText = form.elements['pay-amount'].value.trim().replace(',', '.')
      const name = form.elements['pay-name'].value.trim()
      const document = form.elements['pay-doc'].value.trim()
      const body = { pixCode: code }
      if (amountText) body.amount = Number(amountText)
      if (name || document) body.payer = { ...(name ? { name } : {}), ...(document ? { document } : {}) }
      act(form.querySelector('button[type=submit]'), error, () => api('POST', '/__sandbox/pix/pay', body), 'Charge paid')
    })
    box.append(form)
  }
  return box
}

async function loadTransactions () {
  const form = $('#tx-filters')
  const data = await api('GET', `/__sandbox/transactions${qs({ accountId: state.accountId, kind: form.kind.value, status: form.status.value, limit: 200 })}`)
  const list = listOf(data, 'transactions', 'data')
  for (const tx of list) state.seenStatuses.add(tx.status)
  await loadDeliveries([...state.expanded.tx].filter(id => list.some(tx => tx.id === id)))
  return list
}

/** The deliveries of these transactions (the open rows), into state.txDeliveries. */
async function loadDeliveries (transactionIds) {
  await Promise.all(transactionIds.map(async (id) => {
    const d = await api('GET', `/__sandbox/webhooks/deliveries${qs({ transactionId: id })}`).catch(() => null)
    state.txDeliveries.set(id, d ? listOf(d, 'deliveries', 'data') : [])
  }))
}

function renderStatusOptions () {
  const select = $('#tx-status')
  const sig = [...state.seenStatuses].join()
  if (select.dataset.sig === sig) return
  select.dataset.sig = sig
  const keep = select.value
  clear(select).append(el('option', { value: '' }, 'All statuses'))
  for (const s of [...state.seenStatuses]) select.append(el('option', { value: s }, s))
  select.value = keep
}

async function refreshTransactions () {
  const error = $('#tx-error')
  let list
  try {
    list = await loadTransactions()
    error.textContent = ''
  } catch (err) {
    error.textContent = err.message
    return
  }
  renderStatusOptions()
  $('#tx-empty').hidden = list.length > 0
  $('#tx-count').textContent = `${list.length} shown`
  renderRows($('#tx-list'), list, tx => tx.id, buildTx,
    tx => JSON.stringify([tx, state.expanded.tx.has(tx.id), state.expanded.tx.has(tx.id) ? state.txDeliveries.get(tx.id) : null, !!state.accountId]))
}

// ---------------------------------------------------------------------------------------------------
// Settings, Webhooks

function headerRow (container, key = '', value = '') {
  const n = container.children.length + 1
  const row = el('div', { class: 'header-row' })
  const idBase = `${container.id}-${Date.now()}-${n}`
  row.append(
    el('span', { class: 'inline-field' }, el('label', { for: `${idBase}-k` }, 'Name'),
      el('input', { id: `${idBase}-k`, class: 'h-key', type: 'text', autocomplete: 'off', spellcheck: 'false', value: key })),
    el('span', { class: 'inline-field' }, el('label', { for: `${idBase}-v` }, 'Value'),
      el('input', { id: `${idBase}-v`, class: 'h-value', type: 'text', autocomplete: 'off', spellcheck: 'false', value })),
    el('button', { type: 'button', class: 'secondary small', 'aria-label': 'Remove this header', onclick: () => row.remove() }, 'Remove')
  )
  container.append(row)
  return row
}

function headersFrom (container) {
  return $$('.header-row', container)
    .map(row => ({ key: $('.h-key', row).value.trim(), value: $('.h-value', row).value }))
    .filter(h => h.key !== '' || h.value !== '')
}

function buildRegistration (w) {
  const error = el('p', { class: 'error', role: 'alert' })
  const headers = w.headers && typeof w.headers === 'object' ? (Array.isArray(w.headers) ? w.headers : Object.entries(w.headers).map(([key, value]) => ({ key, value }))) : []
  const card = el('div', { class: 'card registration', 'data-active': String(w.isActive) },
    el('p', { class: 'reg-url' }, el('span', { class: 'url' }, w.url), ' ', badge(w.isActive ? 'active' : 'inactive')),
    facts([
      ['Id', w.id],
      ['Version', w.version],
      ['Created', timeEl(w.createdAt)],
      ['Headers', headers.length ? el('ul', { class: 'mini' }, headers.map(h => el('li', {}, el('code', {}, h.key), ': ', el('code', {}, h.value)))) : 'none'],
    ]))
  const path = `/__sandbox/webhooks/${encodeURIComponent(w.id)}`
  if (state.editing.has(w.id)) {
    const rows = el('div', { class: 'header-rows', id: `edit-headers-${w.id}` })
    for (const h of headers) headerRow(rows, h.key, h.value)
    card.append(el('fieldset', { class: 'headers' }, el('legend', {}, `Headers of ${w.url}`), rows,
      el('div', { class: 'actions' },
        el('button', { type: 'button', class: 'secondary', onclick: () => headerRow(rows) }, 'Add header'),
        el('button', {
          type: 'button',
          'data-key': `save-${w.id}`,
          onclick: async (e) => {
            const ok = await act(e.currentTarget, error, () => api('PATCH', path, { headers: headersFrom(rows) }), 'Headers saved')
            if (ok !== undefined) { state.editing.delete(w.id); forceWebhooks() }
          },
        }, 'Save headers'),
        el('button', { type: 'button', class: 'secondary', onclick: () => { state.editing.delete(w.id); forceWebhooks() } }, 'Cancel'))))
  }
  const actions = el('div', { class: 'actions' })
  if (!state.editing.has(w.id)) {
    actions.append(el('button', { type: 'button', class: 'secondary', 'data-key': `edit-${w.id}`, onclick: () => { state.editing.add(w.id); forceWebhooks(); setTimeout(() => $(`#edit-headers-${w.id} input`)?.focus() || $(`[data-key="save-${w.id}"]`)?.focus()) } }, 'Edit headers'))
  }
  actions.append(el('button', {
    type: 'button',
    class: 'secondary',
    'data-key': `toggle-${w.id}`,
    onclick: (e) => act(e.currentTarget, error, () => api('PATCH', path, { isActive: !w.isActive }), w.isActive ? 'Webhook deactivated' : 'Webhook activated'),
  }, w.isActive ? 'Deactivate' : 'Activate'))
  if (state.confirmingDelete.has(w.id)) {
    actions.append(
      el('button', {
        type: 'button',
        class: 'danger',
        'data-key': `confirm-delete-${w.id}`,
        onclick: async (e) => {
          const ok = await act(e.currentTarget, error, () => api('DELETE', path), 'Webhook deleted')
          state.confirmingDelete.delete(w.id)
          if (ok === undefined) forceWebhooks()
        },
      }, 'Confirm delete'),
      el('button', { type: 'button', class: 'secondary', onclick: () => { state.confirmingDelete.delete(w.id); forceWebhooks() } }, 'Keep it'))
  } else {
    actions.append(el('button', {
      type: 'button',
      class: 'danger',
      'data-key': `delete-${w.id}`,
      onclick: () => { state.confirmingDelete.add(w.id); forceWebhooks(); setTimeout(() => $(`[data-key="confirm-delete-${w.id}"]`)?.focus()) },
    }, 'Delete'))
  }
  card.append(actions, error)
  return card
}

let webhooksSig = ''
function forceWebhooks () { webhooksSig = ''; tick(true) }

async function refreshWebhooks () {
  if (!state.accountId) return
  const container = $('#wh-list')
  let list
  try {
    list = listOf(await api('GET', `/__sandbox/webhooks${qs({ accountId: state.accountId })}`), 'webhooks', 'data')
  } catch (err) {
    $('#wh-error').textContent = err.message
    return
  }
  const sig = JSON.stringify([list, [...state.editing], [...state.confirmingDelete]])
  if (sig === webhooksSig) return
  webhooksSig = sig
  preserving(container, () => {
    const frag = document.createDocumentFragment()
    for (const type of EVENT_TYPES) {
      const entries = list.filter(w => (w.eventType ?? w.type) === type)
      if (!entries.length) continue
      const active = entries.filter(w => w.isActive).length
      frag.append(el('section', { class: 'event-group', 'aria-label': `Webhooks for ${type}` },
        el('h3', {}, el('code', {}, type), el('span', { class: 'muted' }, ` · ${active} of 3 active`)),
        entries.map(buildRegistration)))
    }
    if (!list.length) frag.append(el('p', { class: 'empty' }, 'No webhook registered for this account.'))
    return frag
  })
}

/** The Deliveries tab filters by any delivery event type of the sandbox's dialects (the gateway's events, API Pix's callbacks, any other's). */
function setupDeliveryFilters () {
  for (const t of DELIVERY_TYPES) $('#dl-event').append(el('option', { value: t }, t))
}

function setupWebhookForm () {
  const form = $('#wh-form')
  for (const t of EVENT_TYPES) form.eventType.append(el('option', { value: t }, t))
  $('#wh-add-header').addEventListener('click', () => {
    const row = headerRow($('#wh-headers'))
    $('input', row).focus()
  })
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const headers = headersFrom($('#wh-headers'))
    const body = { accountId: state.accountId, eventType: form.eventType.value, url: form.url.value.trim() }
    if (headers.length) body.headers = headers
    const created = await act($('button[type=submit]', form), $('#wh-error'), () => api('POST', '/__sandbox/webhooks', body), 'Webhook registered')
    if (created !== undefined) {
      form.url.value = ''
      clear($('#wh-headers'))
      forceWebhooks()
    }
  })
}

// ---------------------------------------------------------------------------------------------------
// Deliveries

function buildDelivery (d) {
  const key = d.id
  const open = state.expanded.dl.has(key)
  const summary = toggler('dl', key, `Delivery ${d.eventType} ${d.status}; show details`, [
    el('span', { class: 'cell when' }, when(d.createdAt)),
    el('span', { class: 'cell kind' }, d.eventType),
    badge(d.status),
    el('span', { class: 'cell who url' }, d.url ?? '(no receiver)'),
    el('span', { class: 'cell fee' }, `${d.attempts?.length ?? 0} attempt(s)${lastAttempt(d)}`),
    state.accountId ? null : el('span', { class: 'cell acct' }, `#${d.accountId}`),
  ])
  if (!open) return [summary]
  const error = el('p', { class: 'error', role: 'alert' })
  const detail = el('div', { class: 'row-detail', id: `dl-detail-${key}` })
  detail.append(facts([
    ['Delivery id', el('code', {}, d.id)],
    ['Event', d.eventId],
    ['Transaction', d.transactionId ? el('code', {}, d.transactionId) : null],
    ['URL', d.url ?? '(no receiver)'],
    ['Status', badge(d.status)],
    ['Next attempt', d.nextAttemptAt ? timeEl(d.nextAttemptAt) : null],
    ['Scenarios', d.scenarios?.length ? d.scenarios.join(', ') : null],
    ['Created', timeEl(d.createdAt)],
  ]))
  detail.append(el('div', { class: 'actions' }, el('button', {
    type: 'button',
    'data-key': 'redeliver',
    onclick: (e) => act(e.currentTarget, error, () => api('POST', `/__sandbox/webhooks/deliveries/${encodeURIComponent(d.id)}/redeliver`, {}), 'Redelivery sent'),
  }, 'Redeliver')), error)

  detail.append(el('h4', {}, 'Attempts'))
  const attempts = d.attempts ?? []
  if (!attempts.length) detail.append(el('p', { class: 'muted' }, 'No attempt yet.'))
  else {
    detail.append(el('ol', { class: 'attempts' }, attempts.map((a, i) => el('li', { class: 'attempt', 'data-ok': String(!a.error) },
      el('p', {},
        el('strong', {}, `#${i + 1}`), ' ', el('span', { class: 'muted' }, a.kind ?? ''), ' ', timeEl(a.at), ' · ',
        a.statusCode === null || a.statusCode === undefined ? 'no answer' : `HTTP ${a.statusCode}`,
        // An API Pix callback to an https receiver: the sandbox presented its client certificate (docs/webhooks.md).
        a.clientCertificate ? el('span', { class: 'badge', title: 'over mutual TLS: the sandbox presented its client certificate (GET /__sandbox/webhooks/ca.pem)' }, 'mTLS') : '',
        // Such a callback to a plain http receiver: neither TLS nor the certificate, as a PSP would not post it.
        a.plainHttp ? el('span', { class: 'badge', title: 'plain http: without TLS or the sandbox\'s client certificate, which a PSP presents (docs/webhooks.md)' }, 'no TLS') : '',
        typeof a.latencyMs === 'number' ? ` · ${Math.round(a.latencyMs)} ms` : '',
        a.error ? el('span', { class: 'error-text' }, ` · ${a.error}`) : ''),
      a.requestHeaders ? el('details', { 'data-key': `req-${key}-${i}` }, el('summary', {}, 'Request headers'), el('pre', {}, json(a.requestHeaders))) : null,
      a.responseBody !== undefined && a.responseBody !== null && a.responseBody !== ''
        ? el('details', { 'data-key': `res-${key}-${i}` }, el('summary', {}, 'Response body'), el('pre', { class: 'response' }, String(a.responseBody)))
        : null
    ))))
  }
  detail.append(
    el('h4', {}, 'Request'),
    el('details', { 'data-key': `headers-${key}` }, el('summary', {}, 'Headers'), el('pre', {}, json(d.requestHeaders ?? {}))),
    el('details', { 'data-key': `body-${key}`, open: true }, el('summary', {}, 'Body'), el('pre', { class: 'body' }, json(d.body)))
  )
  return [summary, detail]
}

async function refreshDeliveries () {
  const form = $('#dl-filters')
  let list
  try {
    const data = await api('GET', `/__sandbox/webhooks/deliveries${qs({ accountId: state.accountId, eventType: form.eventType.value, status: form.status.value, transactionId: form.transactionId.value.trim() })}`)
    list = listOf(data, 'deliveries', 'data')
    $('#dl-error').textContent = ''
  } catch (err) {
    $('#dl-error').textContent = err.message
    return
  }
  list = [...list].sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0) || String(b.createdAt).localeCompare(String(a.createdAt)))
  $('#dl-empty').hidden = list.length > 0
  $('#dl-count').textContent = `${list.length} shown`
  renderRows($('#dl-list'), list, d => d.id, buildDelivery, d => JSON.stringify([d, state.expanded.dl.has(d.id), !!state.accountId]))
}

// ---------------------------------------------------------------------------------------------------
// Requests: the request journal, with the two bodies side by side

const bodyText = (body) => (body === null || body === undefined ? '(no body)' : typeof body === 'string' ? body : json(body))

function buildRequest (r) {
  const key = String(r.id)
  const open = state.expanded.rq.has(key)
  const summary = toggler('rq', key, `${r.method} ${r.path} answered ${r.status}; show details`, [
    el('span', { class: 'cell when' }, when(r.at)),
    el('span', { class: 'cell kind' }, `${r.method} ${r.path}`),
    badge(r.status),
    el('span', { class: 'cell fee' }, [`${r.durationMs} ms`, r.scenarios.length ? ` · ${r.scenarios.join(', ')}` : '', r.errorCode ? ` · ${r.errorCode}` : ''].join('')),
    state.accountId ? null : el('span', { class: 'cell acct' }, r.accountId ? `#${r.accountId}` : ''),
  ])
  if (!open) return [summary]
  const detail = el('div', { class: 'row-detail', id: `rq-detail-${key}` })
  const query = Object.keys(r.query ?? {}).length ? new URLSearchParams(r.query).toString() : ''
  detail.append(facts([
    ['Request id', el('code', {}, r.requestId)],
    ['Route', r.route],
    ['Query', query ? el('code', {}, `?${query}`) : null],
    ['Account', r.accountId ? `#${r.accountId}` : null],
    ['Token id', r.tokenId ? el('code', {}, r.tokenId) : null],
    ['Idempotency key', r.idempotencyKey],
    ['External id', r.externalId],
    ['Scenarios', r.scenarios.length ? r.scenarios.join(', ') : null],
    ['Error code', r.errorCode],
    ['Transaction', r.transactionId
      ? el('a', { href: '#transactions', 'data-key': `tx-${key}`, onclick: () => { state.expanded.tx.add(r.transactionId) } }, r.transactionId)
      : null],
    ['Sandbox time', timeEl(r.at)],
    ['Wall time', r.wallTime],
  ]))
  detail.append(el('div', { class: 'side-by-side' },
    el('section', { 'aria-label': 'Request' },
      el('h4', {}, 'Request'),
      el('pre', { class: 'body', 'data-testid': 'request-body' }, bodyText(r.request.body)),
      el('details', { 'data-key': `rqh-${key}` }, el('summary', {}, 'Headers'), el('pre', {}, json(r.request.headers)))),
    el('section', { 'aria-label': 'Response' },
      el('h4', {}, `Response ${r.status}`),
      el('pre', { class: 'body', 'data-testid': 'response-body' }, bodyText(r.response.body)),
      el('details', { 'data-key': `rsh-${key}` }, el('summary', {}, 'Headers'), el('pre', {}, json(r.response.headers))))
  ))
  return [summary, detail]
}

async function refreshRequests () {
  const form = $('#rq-filters')
  const status = form.status.value.trim()
  let list
  try {
    const data = await api('GET', `/__sandbox/requests${qs({ accountId: state.accountId, method: form.method.value, path: form.path.value.trim(), status: /^[1-5]([0-9]{2}|xx)$/i.test(status) ? status : '', transactionId: form.transactionId.value.trim(), limit: 200 })}`)
    list = listOf(data, 'requests')
    $('#rq-error').textContent = ''
  } catch (err) {
    $('#rq-error').textContent = err.message
    return
  }
  $('#rq-empty').hidden = list.length > 0
  $('#rq-count').textContent = `${list.length} shown`
  renderRows($('#rq-list'), list, r => r.id, buildRequest, r => JSON.stringify([r.id, state.expanded.rq.has(String(r.id)), !!state.accountId]))
}

// ---------------------------------------------------------------------------------------------------
// MED

function buildMed (m) {
  const key = String(m.id)
  const open = state.expanded.med.has(key)
  const summary = toggler('med', key, `MED ${m.id} ${m.status}; show details`, [
    el('span', { class: 'cell when' }, when(m.createdAt)),
    el('span', { class: 'cell kind' }, `MED #${m.id}`),
    badge(m.analysisResult ? `${m.status} · ${m.analysisResult}` : m.status),
    el('span', { class: 'cell amount' }, m.originalTransaction ? money(m.originalTransaction.amount) : ''),
    el('span', { class: 'cell who' }, m.cause ?? m.reason ?? ''),
    state.accountId ? null : el('span', { class: 'cell acct' }, m.accountId ? `#${m.accountId}` : ''),
  ])
  if (!open) return [summary]
  const error = el('p', { class: 'error', role: 'alert' })
  const detail = el('div', { class: 'row-detail', id: `med-detail-${key}` })
  const o = m.originalTransaction
  detail.append(facts([
    ['End-to-end id', el('code', {}, m.endToEnd ?? m.endToEndId ?? '')],
    ['Status', badge(m.status)],
    ['Reason', m.reason],
    ['Cause', m.cause],
    ['Description', m.description],
    ['Analysis', m.analysisResult],
    ['Analysis details', m.analysisDetails],
    ['Requesting bank', m.requestingBank ? `${m.requestingBank.name} (${m.requestingBank.ispb})` : null],
    ['Contested bank', m.contestedBank ? `${m.contestedBank.name} (${m.contestedBank.ispb})` : null],
    ['Original PIX', o ? `${money(o.amount)} from ${o.name} (${o.document}) at ${when(o.dateTime)}` : null],
    ['Reconciled', m.isReconciled === undefined ? null : (m.isReconciled ? `yes, transaction ${m.originalTransactionId}` : 'no')],
    ['Created', timeEl(m.createdAt)],
    ['Updated', timeEl(m.updatedAt)],
  ]))
  const path = `/__sandbox/med/${encodeURIComponent(m.id)}/transition`
  const move = (status, extra = {}) => (e) => act(e.currentTarget, error, () => api('POST', path, { status, ...extra }), `MED ${m.id}: ${status}${extra.analysisResult ? ` (${extra.analysisResult})` : ''}`)
  const actions = el('div', { class: 'actions', role: 'group', 'aria-label': 'Move this dispute' })
  if (m.status === 'OPEN') {
    actions.append(el('button', { type: 'button', 'data-key': 'received', onclick: move('RECEIVED') }, 'Receive for analysis'))
  }
  if (m.status === 'RECEIVED') {
    const detailsId = `med-analysis-${key}`
    const input = el('input', { id: detailsId, name: 'analysisDetails', type: 'text', autocomplete: 'off' })
    actions.append(
      el('span', { class: 'inline-field' }, el('label', { for: detailsId }, 'Analysis details'), input),
      el('button', { type: 'button', 'data-key': 'approve', onclick: (e) => move('ANALYZED', { analysisResult: 'APPROVED', ...(input.value.trim() ? { analysisDetails: input.value.trim() } : {}) })(e) }, 'Approve'),
      el('button', { type: 'button', class: 'danger', 'data-key': 'reject', onclick: (e) => move('ANALYZED', { analysisResult: 'REJECTED', ...(input.value.trim() ? { analysisDetails: input.value.trim() } : {}) })(e) }, 'Reject')
    )
  }
  if (m.status === 'OPEN' || m.status === 'RECEIVED') {
    actions.append(el('button', { type: 'button', class: 'secondary', 'data-key': 'cancel', onclick: move('CANCELLED') }, 'Cancel dispute'))
  }
  if (actions.children.length) detail.append(actions)
  detail.append(error, el('details', { 'data-key': `raw-med-${key}` }, el('summary', {}, 'Raw record'), el('pre', {}, json(m))))
  return [summary, detail]
}

async function refreshMed () {
  let list
  try {
    list = listOf(await api('GET', `/__sandbox/med${qs({ accountId: state.accountId })}`), 'meds', 'med', 'data', 'disputes')
    $('#med-list-error').textContent = ''
  } catch (err) {
    $('#med-list-error').textContent = err.message
    return
  }
  list = [...list].sort((a, b) => b.id - a.id)
  $('#med-empty').hidden = list.length > 0
  renderRows($('#med-list'), list, m => m.id, buildMed, m => JSON.stringify([m, state.expanded.med.has(String(m.id)), !!state.accountId]))

  // The received PIX a dispute can be opened against.
  const received = await api('GET', `/__sandbox/transactions${qs({ accountId: state.accountId, limit: 100 })}`)
    .then(d => listOf(d, 'transactions', 'data').filter(tx => tx.direction === 'IN' && tx.endToEndId && !tx.kind.startsWith('REFUND')))
    .catch(() => [])
  const pick = $('#med-pick')
  const sig = JSON.stringify(received.map(tx => [tx.endToEndId, tx.status]))
  if (pick.dataset.sig !== sig) {
    pick.dataset.sig = sig
    const keep = pick.value
    clear(pick).append(el('option', { value: '' }, 'Choose one, or type its end-to-end id below'))
    for (const tx of received) {
      pick.append(el('option', { value: tx.endToEndId }, `${money(txAmount(tx))} · ${txCounterpart(tx) || tx.kind} · ${when(tx.createdAt)} · ${tx.endToEndId}`))
    }
    pick.value = keep
  }
}

function setupMedForm () {
  const form = $('#med-form')
  form.pick.addEventListener('change', () => { if (form.pick.value) form.endToEndId.value = form.pick.value })
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const body = { endToEndId: form.endToEndId.value.trim(), reason: form.reason.value }
    if (form.cause.value.trim()) body.cause = form.cause.value.trim()
    if (form.description.value.trim()) body.description = form.description.value.trim()
    // The new dispute opens expanded, ready for its next transition.
    const open = async () => {
      const m = await api('POST', '/__sandbox/med', body)
      if (m?.id !== undefined) state.expanded.med.add(String(m.id))
      return m
    }
    const created = await act($('button[type=submit]', form), $('#med-error'), open, (m) => `MED ${m?.id ?? ''} opened`)
    if (created !== undefined) form.description.value = ''
  })
}

// ---------------------------------------------------------------------------------------------------
// Clock

function renderClock () {
  const c = state.clock
  if (!c) return
  $('#clock-now').textContent = when(c.now)
  const dl = $('#clock-facts')
  const next = c.nextJobAt ? Date.parse(c.nextJobAt) - Date.parse(c.now) : null
  const sig = JSON.stringify(c)
  if (dl.dataset.sig !== sig) {
    dl.dataset.sig = sig
    clear(dl)
    const pairs = [
      ['State', c.frozen ? 'frozen' : 'running'],
      ['ISO time', c.now],
      ['Offset from wall time', duration(c.offsetMs)],
      ['Pending jobs', String(c.pendingJobs)],
      ['Next job', c.nextJobAt ? `${when(c.nextJobAt)} (in ${duration(Math.max(0, next))})` : 'none'],
    ]
    for (const [k, v] of pairs) dl.append(el('dt', {}, k), el('dd', { 'data-fact': k }, v))
  }
  $('#clock-freeze').disabled = c.frozen
  $('#clock-resume').disabled = !c.frozen
  $('#clock-next').disabled = !c.nextJobAt
  $('#view-clock').dataset.frozen = String(c.frozen)
}

function setupClock () {
  const error = $('#clock-error')
  const advance = (button, ms) => act(button, error, () => api('POST', '/__sandbox/clock/advance', { ms: Math.round(ms) }), (c) => `Clock advanced by ${duration(ms)} to ${when(c?.now)}`)
  $('#clock-freeze').addEventListener('click', (e) => act(e.currentTarget, error, () => api('POST', '/__sandbox/clock/freeze', {}), 'Clock frozen'))
  $('#clock-resume').addEventListener('click', (e) => act(e.currentTarget, error, () => api('POST', '/__sandbox/clock/resume', {}), 'Clock running'))
  const form = $('#clock-form')
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const amount = Number(form.amount.value)
    if (!Number.isFinite(amount) || amount < 0) {
      error.textContent = 'Enter a number of zero or more.'
      return
    }
    advance($('button[type=submit]', form), amount * Number(form.unit.value))
  })
  for (const b of $$('[data-advance]', form)) b.addEventListener('click', () => advance(b, Number(b.dataset.advance)))
  $('#clock-next').addEventListener('click', (e) => {
    const c = state.clock
    if (!c?.nextJobAt) return
    advance(e.currentTarget, Math.max(0, Date.parse(c.nextJobAt) - Date.parse(c.now)))
  })
}

// ---------------------------------------------------------------------------------------------------
// Scenarios

function renderCatalogue () {
  const list = $('#sc-catalogue')
  const catalogue = state.catalogue ?? []
  const q = $('#sc-search').value.trim().toLowerCase()
  const shown = catalogue.filter(s => !q || JSON.stringify(s).toLowerCase().includes(q))
  const sig = JSON.stringify([q, shown.length, catalogue.length, !!state.accountId])
  if (list.dataset.sig === sig) return
  list.dataset.sig = sig
  clear(list)
  for (const s of shown) {
    list.append(el('li', { class: 'card scenario' },
      el('h4', {}, el('code', {}, s.name)),
      el('p', {}, s.effect),
      facts([
        ['Endpoints', s.endpoints.join(', ')],
        ['Timing', s.timing],
        ['Parameters', s.params?.length ? el('ul', { class: 'mini' }, s.params.map(p => el('li', {}, el('code', {}, p.name), p.required ? ' (required) ' : ' ', p.description))) : 'none'],
      ]),
      state.accountId
        ? el('button', {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            $('#sc-name').value = s.name
            updateEndpointOptions()
            $('#sc-name').focus()
            $('#sc-form').scrollIntoView({ block: 'nearest' })
          },
        }, `Arm ${s.name}…`)
        : null
    ))
  }
  if (!shown.length) list.append(el('li', { class: 'empty' }, 'No scenario matches.'))
}

function updateEndpointOptions () {
  const s = (state.catalogue ?? []).find(x => x.name === $('#sc-name').value)
  const select = $('#sc-endpoint')
  clear(select).append(el('option', { value: '' }, 'Every endpoint it fits'))
  for (const e of s?.endpoints ?? []) select.append(el('option', { value: e }, e))
}

async function refreshScenarios () {
  if (!state.catalogue) {
    try {
      state.catalogue = listOf(await api('GET', '/__sandbox/scenarios'), 'scenarios')
    } catch (err) {
      $('#sc-error').textContent = err.message
      return
    }
    const select = $('#sc-name')
    clear(select)
    for (const s of state.catalogue) select.append(el('option', { value: s.name }, s.name))
    updateEndpointOptions()
  }
  renderCatalogue()
  if (!state.accountId) return
  let armed
  try {
    armed = listOf(await api('GET', `/__sandbox/scenarios/armed${qs({ accountId: state.accountId })}`), 'armed')
  } catch (err) {
    $('#sc-error').textContent = err.message
    return
  }
  $('#sc-armed-empty').hidden = armed.length > 0
  renderRows($('#sc-armed'), armed, a => a.id, (a) => {
    const error = el('p', { class: 'error', role: 'alert' })
    return el('div', { class: 'armed' },
      el('code', {}, a.scenario), ' ',
      el('span', { class: 'muted' }, `${a.endpoint ?? 'every endpoint'} · ${a.remaining === null ? 'until disarmed' : `${a.remaining} left`} · since ${when(a.createdAt)}`), ' ',
      el('button', {
        type: 'button',
        class: 'secondary small',
        'data-key': `disarm-${a.id}`,
        'aria-label': `Disarm ${a.scenario}`,
        onclick: (e) => act(e.currentTarget, error, () => api('DELETE', `/__sandbox/scenarios/armed/${a.id}`), `${a.scenario} disarmed`),
      }, 'Disarm'),
      error)
  }, a => JSON.stringify(a))
}

function setupScenarioForm () {
  $('#sc-name').addEventListener('change', updateEndpointOptions)
  $('#sc-search').addEventListener('input', renderCatalogue)
  const form = $('#sc-form')
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const params = form.params.value.trim().replace(/^;+/, '')
    const body = { accountId: state.accountId, scenario: params ? `${form.scenario.value};${params}` : form.scenario.value }
    if (form.endpoint.value) body.endpoint = form.endpoint.value
    if (form.times.value.trim()) body.times = Number(form.times.value)
    act($('button[type=submit]', form), $('#sc-error'), () => api('POST', '/__sandbox/scenarios/arm', body), (a) => `${a?.scenario ?? 'Scenario'} armed`)
  })
}

// ---------------------------------------------------------------------------------------------------
// API Pix (docs/api-pix.md): one block per resource of the dialect. A block says where its records come
// from (`load`, from the control plane), each row's key, the cells of its summary and the facts of its
// detail; `rows` may consult what the other blocks loaded (a cob shows the location bound to it).

const rawRecord = (key, record) => el('details', { 'data-key': `raw-${key}` }, el('summary', {}, 'Raw record'), el('pre', {}, json(record)))

/** Where a cob is paid now: the payload location bound to it; none once unbound; else the gateway's own URL. */
function cobLocation (tx, locs) {
  const bound = locs.find(l => l.chargeId === tx.id)
  if (bound) return { url: bound.location, id: bound.id }
  const locId = tx.data?.cob?.locId
  if (locs.some(l => l.id === locId)) return { url: null, id: locId, unbound: true }
  return { url: tx.data?.location ?? null, id: locId ?? null }
}

/** What a recurrence's valor allows (API Pix's RecSolicitada): a fixed value, a receiver's minimum, or any value. */
function recValueRule (valor) {
  if (valor?.valorRec) return `fixed ${money(Number(valor.valorRec))}`
  if (valor?.valorMinimoRecebedor) return `at least ${money(Number(valor.valorMinimoRecebedor))}`
  return 'any value'
}

const recDebtor = (r) => {
  const d = r.vinculo?.devedor ?? {}
  return `${d.nome ?? ''} (${d.cpf ?? d.cnpj ?? ''})`
}

/** A recurrence's recurring charges, each with its attempts (tentativas): what the payer's PSP debited, or why not. */
function recCharges (r) {
  if (r.charges?.total === 0) return 'none yet: PUT /v2/cobr/{txid} once APROVADA'
  // A row's charges are read once it is open (the list counts them): until that answer, their count.
  if (!r.cobsr) return `${r.charges?.total ?? 0} (loading)`
  return el('ul', { class: 'batch-items', 'aria-label': `Recurring charges of ${r.idRec}` }, r.cobsr.map(c => el('li', { 'data-txid': c.txid },
    el('code', {}, c.txid), ` due ${c.calendario?.dataDeVencimento ?? ''} `, badge(c.status), ` ${money(Number(c.valor?.original))}`,
    c.tentativas?.length
      ? el('ul', { class: 'batch-items', 'aria-label': `Attempts of ${c.txid}` }, c.tentativas.map(a => el('li', { 'data-attempt': `${a.tipo}-${a.dataLiquidacao}` },
        `${a.tipo} on ${a.dataLiquidacao} `, badge(a.status), a.rejeicao?.codigo ? ` ${a.rejeicao.codigo}` : null)))
      : null)))
}

/**
 * The codes a payer of another tool scans for a recurrence: its location's (journey 2, the dadosQR
 * GET /rec/{idRec} shows), and on demand the static code of its contract (journey 4) from the control
 * plane, shown while the recurrence keeps the location it carries; a refusal goes to the block's error line.
 */
function recCodes (r) {
  const amountId = `rec-static-valor-${r.idRec}`
  const made = state.recStaticCodes.get(r.idRec)
  const staticCode = made && made.location === r.loc?.location ? made.pixCopiaECola : null
  const submit = (event) => {
    event.preventDefault()
    const form = event.currentTarget
    const valor = form.elements['static-valor'].value.trim().replace(',', '.')
    const error = $('#ap-rec-error')
    delete state.apRefusals.rec
    act(form.querySelector('button[type=submit]'), error, async () => {
      const answer = await api('POST', `/__sandbox/recurrences/${encodeURIComponent(r.idRec)}/static-code`, valor ? { valor } : {})
      state.recStaticCodes.set(r.idRec, { location: r.loc?.location, pixCopiaECola: answer.pixCopiaECola })
      return answer
    }, 'Static code of the contract made').then((answer) => {
      if (answer === undefined) state.apRefusals.rec = error.textContent
    })
  }
  return el('div', { class: 'rec-codes' },
    el('h4', {}, 'Codes a payer scans'),
    r.dadosQR
      ? [el('p', {}, `The location's code (dadosQR, ${r.dadosQR.jornada})`), codeBox(`rec-code-${r.idRec}`, r.dadosQR.pixCopiaECola, `QR code of recurrence ${r.idRec}`, undefined, 'rec-code')]
      : el('p', { class: 'muted' }, 'No location, so no code of its own: POST /v2/locrec, then PATCH /v2/rec/{idRec} with loc while CRIADA.'),
    el('form', { class: 'form', novalidate: true, 'aria-label': `Static code of the contract of ${r.idRec}`, onsubmit: submit },
      el('div', { class: 'field' }, el('label', { for: amountId }, 'Amount of the static code (BRL, optional)'),
        el('input', { id: amountId, name: 'static-valor', type: 'text', inputmode: 'decimal', autocomplete: 'off', placeholder: r.valor?.valorRec })),
      el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'secondary', 'data-key': 'static-code' }, 'Static code of the contract'))),
    staticCode
      ? [el('p', {}, 'The static code of the contract (JORNADA_4)'), codeBox(`rec-static-code-${r.idRec}`, staticCode, `Static QR code of the contract of recurrence ${r.idRec}`, undefined, 'static-code')]
      : null)
}

/** How an API Pix webhook's receiver was checked when configured (docs/webhooks.md, mutual TLS). */
const MTLS_CHECKS = {
  checked: 'checked: refused without the sandbox\'s client certificate, accepted with it',
  'certificate-only': 'accepted with the client certificate (x-skip-mtls-checking: true skipped the request without)',
  unchecked: 'not checked (the account\'s webhookMtlsCheck or --webhook-mtls-check off)',
  'plain-http': 'plain http: posted to without TLS or the client certificate',
}

/** What each callback of API Pix posts to its webhook's URL. */
const CALLBACK_POSTED = { pix: 'Received PIX posted to', rec: 'Changes of recurrences posted to', cobr: 'Changes of recurring charges posted to' }

const API_PIX_BLOCKS = [
  {
    id: 'cob',
    title: 'Charges (cob)',
    about: 'Immediate charges: their txid, status, amount, and the payload location a payer reads.',
    empty: 'No cob yet: PUT /v2/cob/{txid} or POST /v2/cob.',
    load: () => api('GET', `/__sandbox/transactions${qs({ accountId: state.accountId, kind: 'COB', limit: 200 })}`).then(d => listOf(d, 'transactions')),
    key: tx => tx.id,
    sig: (tx, loaded) => [tx, cobLocation(tx, loaded.loc ?? [])],
    label: tx => `cob ${tx.data?.txid ?? ''} ${tx.status}`,
    cells: (tx, loaded) => {
      const where = cobLocation(tx, loaded.loc ?? [])
      return [
        el('span', { class: 'cell when' }, when(tx.createdAt)),
        el('span', { class: 'cell kind', title: tx.data?.txid }, tx.data?.txid ?? ''),
        badge(tx.status),
        el('span', { class: 'cell amount' }, money(txAmount(tx))),
        el('span', { class: 'cell location', 'data-testid': 'location', title: where.url ?? undefined }, where.url ?? (where.unbound ? `none (unbound from loc ${where.id})` : '')),
      ]
    },
    facts: (tx, loaded) => {
      const cob = tx.data?.cob ?? {}
      const where = cobLocation(tx, loaded.loc ?? [])
      return [
        ['txid', el('code', {}, tx.data?.txid ?? '')],
        ['Status', badge(tx.status)],
        ['Amount (valor.original)', money(txAmount(tx))],
        ['Key (chave)', cob.chave],
        ['Location', where.url ?? (where.unbound ? 'none: unbound' : null)],
        ['loc.id', where.id],
        ['Revision', cob.revisao ?? 0],
        ['Expires after', typeof cob.expiracao === 'number' ? `${cob.expiracao} s` : null],
        ['Debtor', cob.devedor ? `${cob.devedor.nome} (${cob.devedor.cpf ?? cob.devedor.cnpj ?? ''})` : null],
        ['Message to the payer', cob.solicitacaoPagador],
        ['Copy-and-paste code', tx.data?.pixCode ? el('code', { class: 'pixcode' }, tx.data.pixCode) : null],
        ['Transaction', el('code', {}, tx.id)],
        ['Created', timeEl(tx.createdAt)],
        ['Updated', timeEl(tx.updatedAt)],
      ]
    },
  },
  {
    id: 'cobv',
    title: 'Due charges (cobv)',
    about: 'Charges with a due date: when they are due, what a payer pays today, their location.',
    empty: 'No cobv yet: PUT /v2/cobv/{txid}, or a batch (PUT /v2/lotecobv/{id}).',
    load: () => loadPages('/__sandbox/cobvs', 'cobvs', state.paging.cobv),
    more: olderPages('Show older cobvs', state.paging.cobv),
    key: c => c.chargeId,
    label: c => `cobv ${c.txid} ${c.status}`,
    cells: c => [
      el('span', { class: 'cell when' }, `due ${c.calendario.dataDeVencimento}`),
      el('span', { class: 'cell kind', title: c.txid }, c.txid),
      badge(c.status),
      el('span', { class: 'cell amount', 'data-testid': 'due-today', title: 'What a payer pays today' }, c.valorHoje === null ? 'not payable today' : money(Number(c.valorHoje))),
      el('span', { class: 'cell location', 'data-testid': 'location', title: c.location }, c.location ?? ''),
    ],
    facts: c => [
      ['txid', el('code', {}, c.txid)],
      ['Status', badge(c.status)],
      ['Due date (dataDeVencimento)', c.calendario.dataDeVencimento],
      ['Payable after it (validadeAposVencimento)', `${c.calendario.validadeAposVencimento} days`],
      ['Amount due today', c.valorHoje === null ? 'not payable today' : money(Number(c.valorHoje))],
      ['Amount (valor.original)', money(Number(c.valor.original))],
      ['Fine, interest, rebate, discount', ['multa', 'juros', 'abatimento', 'desconto'].filter(k => c.valor[k]).map(k => `${k} (modalidade ${c.valor[k].modalidade})`).join(', ') || null],
      ['Key (chave)', c.chave],
      ['Debtor', `${c.devedor.nome} (${c.devedor.cpf ?? c.devedor.cnpj ?? ''})`],
      ['Location', c.location],
      ['Revision', c.revisao],
      ['Copy-and-paste code', c.pixCopiaECola ? el('code', { class: 'pixcode' }, c.pixCopiaECola) : null],
      ['Transaction', el('code', {}, c.chargeId)],
      ['Created', timeEl(c.calendario.criacao)],
    ],
  },
  {
    id: 'lotecobv',
    title: 'Batches of due charges (lotecobv)',
    about: 'Due charges asked for in batches: each request with its status, and its problem when refused.',
    empty: 'No batch yet: PUT /v2/lotecobv/{id}.',
    load: () => loadPages('/__sandbox/cobv-batches', 'batches', state.paging.lotecobv),
    more: olderPages('Show older batches', state.paging.lotecobv),
    // A batch's id is its account's own choice: two accounts may use one.
    key: b => `${b.accountId}-${b.id}`,
    label: b => `lotecobv ${b.id}: ${b.cobsv.length} requests`,
    cells: b => [
      el('span', { class: 'cell when' }, when(b.criacao)),
      el('span', { class: 'cell kind', title: b.descricao }, `lote #${b.id} · ${b.descricao}`),
      ...['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'].map(status => {
        const n = b.cobsv.filter(i => i.status === status).length
        return n > 0 ? el('span', { class: 'badge', 'data-status': status, 'data-testid': `count-${status}` }, `${n} ${status}`) : null
      }),
    ],
    facts: b => [
      ['id', String(b.id)],
      ['Description', b.descricao],
      ['Created', timeEl(b.criacao)],
      ['Requests', el('ul', { class: 'batch-items', 'aria-label': `Requests of batch ${b.id}` }, b.cobsv.map(i => el('li', { 'data-txid': i.txid },
        el('code', {}, i.txid), ' ', badge(i.status),
        i.problema ? ` ${i.problema.title}: ${i.problema.detail}${(i.problema.violacoes ?? []).filter(v => v.propriedade).map(v => ` (${v.propriedade})`).join('')}` : null)))],
    ],
  },
  {
    id: 'webhook',
    title: 'Webhooks (webhook, webhookrec, webhookcobr)',
    about: 'Where the PIX received on a key, the changes of recurrences and those of recurring charges are posted.',
    empty: 'No API Pix webhook yet: PUT /v2/webhook/{chave}, /v2/webhookrec or /v2/webhookcobr.',
    load: () => loadPages('/__sandbox/api-pix-webhooks', 'webhooks', state.paging.webhook),
    more: olderPages('Show older webhooks', state.paging.webhook),
    // One per key and account (two accounts may name one key in their lists); /webhookrec's and
    // /webhookcobr's, of the whole account, one per callback.
    key: w => `${w.accountId}-${w.chave ?? w.callback}`,
    label: w => w.chave ? `webhook of key ${w.chave}` : `webhook${w.callback} of the account`,
    cells: w => [
      el('span', { class: 'cell when' }, when(w.criacao)),
      el('span', { class: 'cell kind', title: w.chave ?? `/webhook${w.callback}` }, w.chave ?? `/webhook${w.callback}`),
      badge(w.callback),
      el('span', { class: 'cell location', 'data-testid': 'callback-url', title: w.callbackUrl }, w.callbackUrl),
    ],
    facts: w => [
      w.chave ? ['Key (chave)', el('code', {}, w.chave)] : ['Of', `the whole account (/webhook${w.callback})`],
      ['webhookUrl', el('code', {}, w.webhookUrl)],
      [CALLBACK_POSTED[w.callback] ?? 'Posted to', el('code', {}, w.callbackUrl)],
      ['mTLS check', w.mtlsCheck ? el('span', { 'data-testid': 'mtls-check' }, MTLS_CHECKS[w.mtlsCheck] ?? w.mtlsCheck) : null],
      ['Configured', timeEl(w.criacao)],
    ],
  },
  {
    id: 'loc',
    title: 'Payload locations (loc)',
    about: 'Where payers\' PSPs read a charge\'s signed payload, and the txid each one serves.',
    empty: 'No payload location yet: POST /v2/loc, or a cob made on API Pix.',
    load: () => loadPages('/__sandbox/locations', 'locations', state.paging.loc),
    more: olderPages('Show older locations', state.paging.loc),
    key: l => l.id,
    label: l => `loc ${l.id} ${l.txid ? `serving ${l.txid}` : 'serving no charge'}`,
    cells: l => [
      el('span', { class: 'cell when' }, when(l.criacao)),
      el('span', { class: 'cell kind' }, `loc #${l.id} · ${l.tipoCob}`),
      badge(l.txid ? 'bound' : 'free'),
      el('span', { class: 'cell location', 'data-testid': 'location', title: l.location }, l.location),
    ],
    facts: l => [
      ['id', String(l.id)],
      ['Location', el('code', {}, l.location)],
      ['Charge type (tipoCob)', l.tipoCob],
      ['Serves txid', l.txid ? el('code', {}, l.txid) : 'no charge'],
      ['Transaction', l.chargeId ? el('code', {}, l.chargeId) : null],
      ['Created', timeEl(l.criacao)],
    ],
  },
  {
    id: 'rec',
    title: 'Recurrences (rec, Pix Automático)',
    about: 'Pix Automático: each recurrence\'s status, periodicity, value rule and debtor, its recurring charges (cobr) and their attempts, and the codes a payer scans.',
    empty: 'No recurrence yet: POST /v2/rec.',
    load: loadRecurrences,
    more: olderPages('Show older recurrences', state.paging.rec),
    key: r => r.idRec,
    sig: r => [r, state.recStaticCodes.get(r.idRec) ?? null],
    label: r => `rec ${r.idRec} ${r.status}`,
    cells: r => [
      el('span', { class: 'cell when' }, when(r.atualizacao?.[0]?.data)),
      el('span', { class: 'cell kind', title: r.idRec }, r.idRec),
      badge(r.status),
      el('span', { class: 'cell', 'data-testid': 'periodicity' }, r.calendario?.periodicidade ?? ''),
      el('span', { class: 'cell amount', 'data-testid': 'value-rule' }, recValueRule(r.valor)),
      el('span', { class: 'cell', 'data-testid': 'debtor', title: recDebtor(r) }, `${recDebtor(r)} · ${r.charges?.total ?? 0} cobr`),
    ],
    facts: r => [
      ['idRec', el('code', {}, r.idRec)],
      ['Status', badge(r.status)],
      ['Periodicity (periodicidade)', r.calendario?.periodicidade],
      ['From (dataInicial)', r.calendario?.dataInicial],
      ['Until (dataFinal)', r.calendario?.dataFinal ?? 'no end'],
      ['Value rule (valor)', recValueRule(r.valor)],
      ['Debtor', recDebtor(r)],
      ['Contract (contrato)', r.vinculo?.contrato],
      ['Retries (politicaRetentativa)', r.politicaRetentativa],
      ['Journey (ativacao.tipoJornada)', r.ativacao?.tipoJornada],
      ['Location (loc)', r.loc ? el('code', {}, r.loc.location) : 'none'],
      ['Payer (pagador)', r.pagador ? `${r.pagador.cpf ?? r.pagador.cnpj ?? ''} at PSP ${r.pagador.ispbParticipante}` : null],
      ['Recurring charges (cobr)', recCharges(r)],
    ],
    extra: recCodes,
  },
]

/** A list of the control plane paged the last made first (limit, nextCursor): the pages shown, and whether older ones remain. */
const PAGE = 50
async function loadPages (path, items, paging) {
  const records = []
  let cursor
  for (let page = 0; page < paging.pages; page++) {
    const answer = await api('GET', `${path}${qs({ accountId: state.accountId, limit: PAGE, cursor })}`)
    records.push(...listOf(answer, items))
    cursor = answer.nextCursor
    if (cursor === undefined) break
  }
  paging.older = cursor !== undefined
  return records
}

/** A paged block's button that shows one more page, while older ones remain. */
function olderPages (label, paging) {
  return { label, onclick: () => { paging.pages++; tick(true) }, shown: () => paging.older }
}

/** Recurrences a page at a time, then the charges of each open row, read whole (the list counts them). */
async function loadRecurrences () {
  const recs = await loadPages('/__sandbox/recurrences', 'recurrences', state.paging.rec)
  const open = recs.filter(r => state.expanded['ap-rec'].has(r.idRec))
  await Promise.all(open.map(async (r) => {
    r.cobsr = (await api('GET', `/__sandbox/recurrences/${encodeURIComponent(r.idRec)}`)).cobsr
  }))
  return recs
}

function buildApiPixRow (block, record, loaded) {
  const kind = `ap-${block.id}`
  const key = String(block.key(record))
  const summary = toggler(kind, key, `${block.label(record)}; show details`, [
    block.cells(record, loaded),
    state.accountId ? null : el('span', { class: 'cell acct' }, `#${record.accountId}`),
  ])
  if (!state.expanded[kind].has(key)) return [summary]
  return [summary, el('div', { class: 'row-detail', id: `${kind}-detail-${key}` }, facts(block.facts(record, loaded)), block.extra?.(record, loaded), rawRecord(`${kind}-${key}`, record))]
}

function setupApiPix () {
  const container = $('#ap-blocks')
  for (const block of API_PIX_BLOCKS) {
    container.append(el('section', { class: 'block', id: `ap-${block.id}`, 'aria-labelledby': `h-ap-${block.id}` },
      el('h3', { id: `h-ap-${block.id}` }, block.title),
      el('p', { class: 'muted about' }, block.about),
      el('p', { class: 'error', id: `ap-${block.id}-error`, role: 'alert' }),
      el('p', { class: 'empty', id: `ap-${block.id}-empty`, hidden: true }, block.empty),
      el('ul', { class: 'rows', id: `ap-${block.id}-list`, 'aria-label': block.title }),
      block.more ? el('p', { class: 'more', id: `ap-${block.id}-more`, hidden: true }, el('button', { type: 'button', class: 'secondary', onclick: block.more.onclick }, block.more.label)) : null))
  }
}

async function refreshApiPix () {
  const results = await Promise.allSettled(API_PIX_BLOCKS.map(b => b.load()))
  const loaded = Object.fromEntries(API_PIX_BLOCKS.map((b, i) => [b.id, results[i].status === 'fulfilled' ? results[i].value : null]))
  API_PIX_BLOCKS.forEach((block, i) => {
    const result = results[i]
    $(`#ap-${block.id}-error`).textContent = result.status === 'rejected' ? result.reason.message : (state.apRefusals[block.id] ?? '')
    if (result.status === 'rejected') return
    const kind = `ap-${block.id}`
    $(`#ap-${block.id}-empty`).hidden = result.value.length > 0
    if (block.more) $(`#ap-${block.id}-more`).hidden = !block.more.shown()
    // A row may read the other blocks too (a cob's location): its `sig` says what it shows.
    renderRows($(`#ap-${block.id}-list`), result.value, block.key, r => buildApiPixRow(block, r, loaded),
      r => JSON.stringify([block.sig ? block.sig(r, loaded) : r, state.expanded[kind].has(String(block.key(r))), !!state.accountId]))
  })
}

// ---------------------------------------------------------------------------------------------------
// Mercado Pago (docs/mercado-pago.md): the selected account's payments as GET /v1/payments/{id} shows
// them, read from the control plane a page at a time; an open one's notifications from its deliveries.

async function loadMercadoPago () {
  const payments = await loadPages('/__sandbox/mercado-pago/payments', 'payments', state.paging.mp)
  await loadDeliveries(payments.filter(p => state.expanded.mp.has(String(p.id))).map(p => p.transactionId))
  return payments
}

const mpStatus = (p) => `${p.status}/${p.status_detail}`

function buildMercadoPagoPayment (p) {
  const key = String(p.id)
  const summary = toggler('mp', key, `Payment ${p.id} ${mpStatus(p)}; show details`, [
    el('span', { class: 'cell when' }, when(p.date_created)),
    el('span', { class: 'cell kind', 'data-testid': 'payment-id' }, String(p.id)),
    el('span', { class: 'badge', 'data-status': p.status, 'data-testid': 'status' }, mpStatus(p)),
    el('span', { class: 'cell amount' }, money(p.transaction_amount)),
    el('span', { class: 'cell fee', 'data-testid': 'refunded' }, p.transaction_amount_refunded ? `refunded ${money(p.transaction_amount_refunded)}` : ''),
    el('span', { class: 'cell when', 'data-testid': 'expires', title: `date_of_expiration ${p.date_of_expiration}` }, p.status === 'pending' ? `expires ${when(p.date_of_expiration)}` : ''),
    el('span', { class: 'cell who', 'data-testid': 'external-reference', title: p.external_reference ?? undefined }, p.external_reference ?? ''),
  ])
  if (!state.expanded.mp.has(key)) return [summary]
  const error = el('p', { class: 'error', role: 'alert' })
  const detail = el('div', { class: 'row-detail', id: `mp-detail-${key}` })
  const code = p.point_of_interaction?.transaction_data?.qr_code
  detail.append(facts([
    ['id', el('code', {}, String(p.id))],
    ['status / status_detail', el('span', { class: 'badge', 'data-status': p.status }, mpStatus(p))],
    ['transaction_amount', money(p.transaction_amount)],
    ['transaction_amount_refunded', money(p.transaction_amount_refunded)],
    ['date_of_expiration', el('span', { 'data-testid': 'date-of-expiration' }, p.date_of_expiration)],
    ['date_approved', p.date_approved],
    ['external_reference', p.external_reference],
    ['description', p.description],
    ['notification_url', p.notification_url],
    ['Transaction', el('code', {}, p.transactionId)],
  ]))
  // Paid as any charge of the sandbox: POST /__sandbox/pix/pay with its qr_code.
  if (code) detail.append(buildCharge({ id: p.transactionId, status: p.status === 'pending' ? 'PENDING' : p.status, amount: p.transaction_amount, data: { qrCodeBase64: p.point_of_interaction.transaction_data.qr_code_base64 } }, code, error))
  detail.append(error)
  detail.append(el('h4', {}, 'Refunds'))
  detail.append(p.refunds?.length
    ? el('ul', { class: 'mini', 'aria-label': `Refunds of payment ${p.id}` }, p.refunds.map(r => el('li', { 'data-refund': String(r.id) },
      el('code', {}, String(r.id)), ' ', badge(r.status), ` ${money(r.amount)} · `, r.date_created)))
    : el('p', { class: 'muted' }, 'No refund.'))
  detail.append(el('h4', {}, 'Notifications'), deliveryList(p.transactionId, 'No notification: no notification_url, nor a webhook URL of the account.', `Notifications of payment ${p.id}`))
  detail.append(rawRecord(`mp-${key}`, p))
  return [summary, detail]
}

async function refreshMercadoPago () {
  $('#mp-no-account').hidden = !!state.accountId
  if (!state.accountId) {
    $('#mp-empty').hidden = true
    $('#mp-more').hidden = true
    clear($('#mp-list'))
    return
  }
  let list
  try {
    list = await loadMercadoPago()
    $('#mp-error').textContent = ''
  } catch (err) {
    $('#mp-error').textContent = err.message
    return
  }
  $('#mp-empty').hidden = list.length > 0
  $('#mp-more').hidden = !state.paging.mp.older
  renderRows($('#mp-list'), list, p => p.id, buildMercadoPagoPayment,
    p => JSON.stringify([p, state.expanded.mp.has(String(p.id)), state.expanded.mp.has(String(p.id)) ? state.txDeliveries.get(p.transactionId) : null]))
}

// ---------------------------------------------------------------------------------------------------
// Report

function buildCheck (c) {
  const ids = (label, list) => list?.length ? [` · ${label}: `, list.map((id, i) => [i ? ', ' : '', el('code', {}, id)])] : []
  return el('article', { class: 'check', 'data-check': c.id, 'data-state': c.status },
    el('h3', {}, el('span', { class: 'badge', 'data-status': c.status }, CHECK_STATUS[c.status] ?? c.status), ' ', c.title),
    el('p', { class: 'muted' }, `${c.section} (${c.docs})`),
    el('p', { class: 'summary' }, c.summary),
    c.evidence.length
      ? el('ul', { class: 'evidence', 'aria-label': `Evidence for ${c.id}` }, c.evidence.map(e => el('li', {},
        e.note, ids('requests', e.requestIds), ids('deliveries', e.deliveryIds), ids('transactions', e.transactionIds))))
      : null)
}

async function refreshReport () {
  if (!state.accountId) return
  let report
  try {
    report = await api('GET', `/__sandbox/report${qs({ accountId: state.accountId })}`)
    $('#rp-error').textContent = ''
  } catch (err) {
    $('#rp-error').textContent = err.message
    return
  }
  const { passed, failed, not_exercised: idle, not_applicable: unused } = report.counts
  const verdict = $('#rp-verdict')
  verdict.dataset.verdict = report.verdict
  verdict.textContent = `${report.verdict === 'passed' ? 'Passed' : report.verdict === 'failed' ? 'Failed' : 'Incomplete'}: ${passed} passed, ${failed} failed, ${idle} not exercised${unused ? `, ${unused} not applicable` : ''}`
  renderRows($('#rp-list'), report.checks, c => c.id, buildCheck, c => JSON.stringify(c))
}

function setupReport () {
  $('#rp-probe').addEventListener('click', (e) => act(e.currentTarget, $('#rp-error'),
    () => api('POST', '/__sandbox/report/probe', { accountId: state.accountId }),
    (sent) => `Badly signed ${sent?.deliveries?.[0]?.eventType ?? ''} webhook sent to ${sent?.deliveries?.length ?? 0} receiver(s)`))
}

// ---------------------------------------------------------------------------------------------------
// Views, polling

function showView () {
  for (const name of VIEWS) $(`#view-${name}`).hidden = name !== state.view
  for (const a of $$('.tabs a')) {
    if (a.dataset.view === state.view) a.setAttribute('aria-current', 'page')
    else a.removeAttribute('aria-current')
  }
  document.title = `${$(`#h-${state.view}`).textContent} · pix-sandbox`
}

const refreshers = {
  transactions: refreshTransactions,
  webhooks: refreshWebhooks,
  deliveries: refreshDeliveries,
  requests: refreshRequests,
  med: refreshMed,
  apipix: refreshApiPix,
  mercadopago: refreshMercadoPago,
  clock: async () => renderClock(),
  scenarios: refreshScenarios,
  report: refreshReport,
}

let running = null
let again = false
let timer = 0

/** One poll: accounts and clock always, plus the visible view. Overlapping calls coalesce. */
async function tick (force = false) {
  if (running) {
    again = again || force
    return running
  }
  running = (async () => {
    clearTimeout(timer)
    const live = $('#live')
    try {
      const [accounts, clock] = await Promise.all([api('GET', '/__sandbox/accounts'), api('GET', '/__sandbox/clock')])
      state.accounts = listOf(accounts, 'accounts')
      state.clock = clock
      renderAccounts()
      renderBalance()
      renderClockBadge()
      const view = state.view
      await refreshers[view]()
      // Which view the last completed poll drew (tests wait on it after a navigation).
      document.body.dataset.view = view
      live.dataset.state = 'live'
      live.textContent = 'live'
      document.body.dataset.polls = String(Number(document.body.dataset.polls ?? 0) + 1)
    } catch (err) {
      live.dataset.state = 'down'
      live.textContent = err instanceof ApiFailure ? `error: ${err.message}` : 'sandbox unreachable'
    } finally {
      running = null
      if (again) {
        again = false
        tick()
      } else {
        schedule()
      }
    }
  })()
  return running
}

function schedule () {
  clearTimeout(timer)
  if (document.hidden) {
    $('#live').dataset.state = 'paused'
    $('#live').textContent = 'paused'
    return
  }
  timer = setTimeout(tick, POLL_MS)
}

function start () {
  readLocation()
  setupWebhookForm()
  setupDeliveryFilters()
  setupMedForm()
  setupApiPix()
  setupClock()
  setupScenarioForm()
  setupReport()
  $('#mp-older').addEventListener('click', () => { state.paging.mp.pages++; tick(true) })
  $('#account').addEventListener('change', (e) => {
    writeAccount(e.target.value ? Number(e.target.value) : null)
    webhooksSig = ''
    tick(true)
  })
  $('#balance').addEventListener('click', (e) => {
    const link = e.target.closest('a[data-account]')
    if (!link) return
    e.preventDefault()
    writeAccount(Number(link.dataset.account))
    tick(true)
  })
  for (const form of ['#tx-filters', '#dl-filters', '#rq-filters']) {
    $(form).addEventListener('change', () => tick(true))
    $(form).addEventListener('submit', (e) => { e.preventDefault(); tick(true) })
  }
  $('#dl-tx').addEventListener('input', () => tick(true))
  for (const input of ['#rq-path', '#rq-status', '#rq-tx']) $(input).addEventListener('input', () => tick(true))
  window.addEventListener('hashchange', () => {
    readLocation()
    showView()
    // As after a page load: the next Tab goes into the view just opened.
    $('#main').focus({ preventScroll: true })
    tick(true)
  })
  window.addEventListener('popstate', () => { readLocation(); tick(true) })
  // A poll in flight when the tab hides finishes, and its own schedule() then pauses: "paused" is shown
  // only once no poll is running, so the badge never claims a pause that a finishing poll contradicts.
  document.addEventListener('visibilitychange', () => { if (!document.hidden) tick(true); else if (!running) schedule() })
  $('#admin-form').addEventListener('submit', (e) => {
    e.preventDefault()
    sessionStorage.setItem(ADMIN_KEY, $('#admin-token').value)
    $('#admin-form').hidden = true
    tick(true)
  })
  showView()
  tick(true)
}

start()

import { FormatRegistry, Type, type TSchema } from '@sinclair/typebox'
import type { TypeCheck } from '@sinclair/typebox/compiler'
import { ENDPOINTS } from '../../scenarios/types.js'
import { parseInstant, SANDBOX_TIME_RANGE, withinSandboxTime } from '../domain/instant.js'
import { API_PIX_SCOPES } from '../domain/scopes.js'
import { SPLIT_KEY_TYPES } from '../domain/keys.js'
import { TOTAL_LIMIT_CENTS } from '../domain/ledger.js'
import { MAX_CENTS } from '../domain/money.js'
import {
  COLLECTIONS, DELIVERY_STATUSES, EVENT_TYPES, INSTANT_FORMAT, PayloadLocationSchema, SigningKeySchema, STATE_FORMAT, STATE_FORMAT_VERSION, TRANSACTION_KINDS, emptyState,
  type ClockRecord, type Collection, type RngState, type State, type TransactionKind,
} from './state.js'

/**
 * Reading a document that claims to be a sandbox state (the data file, a snapshot to import) and
 * deciding whether it is one, before anything is replaced. A document is accepted only whole: its
 * format marker and version, the shape of every record, and the references the code follows without
 * checking again (a transaction's account, a collection key that is its record's id, the sequences
 * ahead of every id already used). What it returns is a fresh `State`, never the caller's objects.
 */

export type ReadDocument =
  | { ok: true, state: State, clock: ClockRecord | undefined, rng: RngState | undefined, journalGeneration: number | undefined, legacy: boolean }
  | { ok: false, kind: 'foreign' | 'newer' | 'invalid', problems: string[] }

/** How many problems a refusal lists (a broken file can have thousands; the first ones say enough). */
const MAX_PROBLEMS = 20

/**
 * What pairs a data file with its journals (`journalGeneration`, `baseId`: see store.ts) is the file's,
 * not the state's: read whatever the layout of the state around it.
 */
const FILE_KEYS = ['journalGeneration', 'baseId']
const LEGACY_KEYS = new Set(['schemaVersion', 'seq', ...FILE_KEYS, ...COLLECTIONS])
const KEYS = new Set(['format', 'formatVersion', 'clock', 'rng', 'seq', ...FILE_KEYS, ...COLLECTIONS])
const REQUIRED: ReadonlyArray<'seq' | Collection> = ['seq', 'accounts', 'transactions', 'directory']

function describe (value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `a ${typeof value}`
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Classifies and validates a parsed JSON document. `foreign`: not a sandbox state at all (another
 * program's JSON, a bare array); `newer`: a later format version of this sandbox; `invalid`: marked as
 * a sandbox state but broken somewhere, with the problems listed.
 */
export async function readDocument (doc: unknown): Promise<ReadDocument> {
  const kind = classify(doc)
  if (!kind.ok) return kind
  // The schema compiler is loaded on first use: a start with no data file or an empty one never pays for it.
  compiler ??= (await import('@sinclair/typebox/compiler')).TypeCompiler
  return validate(doc as Record<string, unknown>, kind.legacy)
}

let compiler: typeof import('@sinclair/typebox/compiler').TypeCompiler | undefined

/** Whether a parsed JSON document is a state of this sandbox (current or previous format) at all. */
export function classify (doc: unknown): { ok: true, legacy: boolean } | { ok: false, kind: 'foreign' | 'newer' | 'invalid', problems: string[] } {
  if (!isObject(doc)) return { ok: false, kind: 'foreign', problems: [`the document is ${describe(doc)}, not a pix-sandbox state (an object with "format": "${STATE_FORMAT}")`] }
  if ('format' in doc) {
    if (doc.format !== STATE_FORMAT) return { ok: false, kind: 'foreign', problems: [`its "format" is ${JSON.stringify(doc.format)}, not "${STATE_FORMAT}"`] }
    const version = doc.formatVersion
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      return { ok: false, kind: 'invalid', problems: [`formatVersion must be a positive integer, not ${JSON.stringify(version)}`] }
    }
    if (version > STATE_FORMAT_VERSION) {
      return { ok: false, kind: 'newer', problems: [`it has format version ${version}, written by a newer pix-sandbox (this one reads up to ${STATE_FORMAT_VERSION})`] }
    }
    if (version !== STATE_FORMAT_VERSION) return { ok: false, kind: 'invalid', problems: [`format version ${version} was never written by pix-sandbox`] }
    return { ok: true, legacy: false }
  }
  // The sandbox's own first layout (schemaVersion 1, no marker, the same records): migrated on read.
  if (doc.schemaVersion === 1 && Object.keys(doc).every(k => LEGACY_KEYS.has(k)) && REQUIRED.every(k => k in doc)) return { ok: true, legacy: true }
  const why = 'schemaVersion' in doc ? `schemaVersion ${JSON.stringify(doc.schemaVersion)} without the format marker` : `no "format": "${STATE_FORMAT}" marker`
  return { ok: false, kind: 'foreign', problems: [`it is not a pix-sandbox state (${why})`] }
}

function validate (doc: Record<string, unknown>, legacy: boolean): ReadDocument {
  const problems: string[] = []
  const add = (p: string): void => { problems.push(p) }
  for (const key of Object.keys(doc)) if (!(legacy ? LEGACY_KEYS : KEYS).has(key)) add(`${key}: not part of a pix-sandbox state`)
  for (const key of REQUIRED) if (!(key in doc)) add(`${key}: missing`)
  const state = emptyState()

  const seq = doc.seq
  if ('seq' in doc) {
    if (!isObject(seq)) add(`seq: must be an object of sequence names to integers, not ${describe(seq)}`)
    else {
      for (const [name, value] of Object.entries(seq)) {
        if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) state.seq[name] = value
        else add(`seq/${name}: must be a non-negative integer, not ${JSON.stringify(value)}`)
      }
    }
  }

  for (const collection of COLLECTIONS) {
    if (!(collection in doc)) continue
    const records = doc[collection]
    if (!isObject(records)) { add(`${collection}: must be an object keyed by id, not ${describe(records)}`); continue }
    const into = state[collection] as Record<string, unknown>
    for (const [key, record] of Object.entries(records)) {
      if (problems.length > MAX_PROBLEMS * 4) break
      const check = checker(collection, record)
      if (!check) { add(`${collection}/${key}/kind: must be one of ${TRANSACTION_KINDS.join(', ')}`); continue }
      const first = check.Errors(record).First()
      if (first) {
        const why = (first.schema as { format?: string }).format === INSTANT ? `must be an ISO 8601 instant such as ${AN_INSTANT}, not ${JSON.stringify(first.value)}` : first.message
        add(`${collection}/${key}${first.path}: ${why}`)
        continue
      }
      const id = collection === 'directory' ? (record as { key: string }).key : String((record as { id: unknown }).id)
      if (id !== key) { add(`${collection}/${key}: the record's ${collection === 'directory' ? 'key' : 'id'} is ${JSON.stringify(id)}`); continue }
      into[key] = record
    }
  }
  references(state, add)

  let clock: ClockRecord | undefined
  if ('clock' in doc) {
    const c = doc.clock
    const now = isObject(c) && typeof c.now === 'string' ? parseInstant(c.now) : null
    if (!isObject(c) || now === null || typeof c.frozen !== 'boolean' || (c.offsetMs !== undefined && (typeof c.offsetMs !== 'number' || !Number.isFinite(c.offsetMs)))) {
      add('clock: must be { now: an ISO 8601 instant, frozen: boolean, offsetMs?: number }')
    } else if (!withinSandboxTime(now)) {
      add(`clock/now: ${c.now} is outside sandbox time (${SANDBOX_TIME_RANGE})`)
    } else {
      clock = { now: c.now as string, frozen: c.frozen, ...(typeof c.offsetMs === 'number' ? { offsetMs: c.offsetMs } : {}) }
    }
  }
  let rng: RngState | undefined
  if ('rng' in doc) {
    const r = doc.rng
    if (Array.isArray(r) && r.length === 4 && r.every(n => Number.isInteger(n) && n >= 0 && n < 2 ** 32)) rng = r as RngState
    else add('rng: must be four integers from 0 to 2^32 - 1')
  }
  const generation = doc.journalGeneration
  if (generation !== undefined && !(typeof generation === 'number' && Number.isSafeInteger(generation) && generation >= 0)) add('journalGeneration: must be a non-negative integer')
  if (doc.baseId !== undefined && typeof doc.baseId !== 'string') add('baseId: must be a string')

  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS)
    if (problems.length > MAX_PROBLEMS) shown.push(`... and ${problems.length - MAX_PROBLEMS} more`)
    return { ok: false, kind: 'invalid', problems: shown }
  }
  // The records themselves, not copies: the caller hands over a document it just parsed (the data file,
  // a request body), and copying 100k records would double the time of a start.
  return { ok: true, state, clock, rng, journalGeneration: generation as number | undefined, legacy }
}

/**
 * What the code relies on without looking again: the owner of every record exists, client ids are
 * unique (a token names its account by one), and each sequence is ahead of every id it handed out (or
 * the next record would overwrite one). A sequence behind is raised rather than refused: a snapshot
 * edited by hand to add an account need not also edit `seq`.
 */
function references (state: State, add: (problem: string) => void): void {
  const clientIds = new Map<string, number>()
  for (const a of Object.values(state.accounts)) {
    const other = clientIds.get(a.clientId)
    if (other !== undefined) add(`accounts/${a.id}: clientId ${JSON.stringify(a.clientId)} is also account ${other}'s`)
    clientIds.set(a.clientId, a.id)
  }
  for (const collection of ['transactions', 'armedScenarios', 'webhooks', 'deliveries', 'meds', 'locations'] as const) {
    for (const [key, record] of Object.entries(state[collection])) {
      if (!state.accounts[record.accountId]) add(`${collection}/${key}: account ${record.accountId} does not exist`)
    }
  }
  const raise = (name: string, ids: Iterable<number>): void => {
    let max = state.seq[name] ?? 0
    for (const id of ids) if (id > max) max = id
    if (max > 0) state.seq[name] = max
  }
  raise('account', Object.values(state.accounts).map(a => a.id))
  raise('transaction', Object.values(state.transactions).map(t => t.seq))
  raise('armedScenario', Object.values(state.armedScenarios).map(a => a.id))
  raise('webhook', Object.values(state.webhooks).map(w => w.id))
  raise('delivery', Object.values(state.deliveries).map(d => d.seq))
  raise('med', Object.values(state.meds).map(m => m.id))
  // API Pix's locations and the root family's cobs share the loc ids.
  raise('loc', [...Object.values(state.locations).map(l => l.id), ...Object.values(state.transactions).flatMap(t => t.kind === 'COB' ? [t.data.cob?.locId ?? 0] : [])])
}

// ---- record schemas: what the code reads without checking again ---------------------------------------

const INSTANT = INSTANT_FORMAT
const AN_INSTANT = '2026-03-10T15:00:00.000Z'
FormatRegistry.Set(INSTANT, value => parseInstant(value) !== null)

const Instant = Type.String({ format: INSTANT })
/** Every integer of the document is exact: past 2^53 a double skips integers, and the cents helpers refuse it. */
const Int = (bounds: { minimum?: number, maximum?: number } = {}) => Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...bounds })
const Id = Int({ minimum: 1 })
/** An amount one operation carries (a payment, a fee, a split): what `domain/money.ts` ever reads in. */
const Cents = Int({ minimum: 0, maximum: MAX_CENTS })
/** What an account holds, allows or has moved in total: within the ledger's bounds (`domain/ledger.ts`). */
const Holding = Int({ minimum: 0, maximum: TOTAL_LIMIT_CENTS })
const Text = Type.String()
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()])
const Open = <T extends Record<string, TSchema>>(fields: T) => Type.Object(fields, { additionalProperties: true })
const OneOf = (values: readonly string[]) => Type.Union(values.map(v => Type.Literal(v)))
const Strings = Type.Record(Type.String(), Text)

const CounterpartSchema = Open({
  name: Text,
  document: Text,
  ispb: Text,
  bankName: Text,
  bankCode: Nullable(Text),
  accountBranch: Nullable(Text),
  accountNumber: Nullable(Text),
  key: Type.Optional(Text),
  generated: Type.Optional(Type.Literal(true)),
})

const AccountSchema = Open({
  id: Id,
  name: Text,
  document: Text,
  ispb: Text,
  bankName: Text,
  clientId: Text,
  clientSecret: Text,
  certificateFingerprints: Type.Array(Text),
  certificatePem: Text,
  providerGroup: OneOf(['A', 'B', 'C', 'D', 'E']),
  documentCheck: Type.Boolean(),
  feeCents: Cents,
  limits: Open({ perTransactionCents: Holding, dailyCents: Holding, nightlyCents: Holding }),
  cashInMinExpirationSeconds: Int({ minimum: 0 }),
  splitFrequency: OneOf(['IMMEDIATE', 'HOURLY', 'DAILY']),
  balance: Open({ availableCents: Holding, blockedCents: Holding }),
  totals: Open({
    openingCents: Holding,
    adjustmentsCents: Int({ minimum: -TOTAL_LIMIT_CENTS, maximum: TOTAL_LIMIT_CENTS }),
    settledInCents: Holding,
    settledOutCents: Holding,
    feesCents: Holding,
  }),
  createdAt: Instant,
  incarnation: Type.Optional(Text),
  scopes: Type.Optional(Type.Array(OneOf(API_PIX_SCOPES))),
})

const Split = Open({
  pixKey: Text,
  pixKeyType: OneOf(SPLIT_KEY_TYPES),
  name: Text,
  document: Text,
  type: OneOf(['FIXED', 'PERCENTAGE']),
  value: Type.Number({ minimum: 0 }),
  immediate: Type.Boolean(),
  amountCents: Cents,
  status: OneOf(['WAITING', 'SCHEDULED', 'PAID', 'FAILED']),
  dueAt: Type.Optional(Instant),
  transactionId: Type.Optional(Text),
})
const Received = Open({
  endToEndId: Text,
  amountCents: Cents,
  payer: Open({ name: Text, document: Text, ispb: Text, bankName: Text, accountId: Type.Optional(Id) }),
  at: Instant,
})
const BrCodeSchema = Open({
  payloadFormat: Text,
  singleUse: Type.Boolean(),
  key: Type.Optional(Text),
  location: Type.Optional(Text),
  amountCents: Type.Optional(Cents),
  merchantName: Text,
  merchantCity: Text,
  txid: Type.Optional(Text),
  description: Type.Optional(Text),
})
const CobSchema = Open({
  expiracao: Int(),
  devedor: Type.Optional(Open({ cpf: Type.Optional(Text), cnpj: Type.Optional(Text), nome: Text })),
  original: Text,
  modalidadeAlteracao: Int(),
  chave: Type.Optional(Text),
  solicitacaoPagador: Type.Optional(Text),
  infoAdicionais: Type.Optional(Type.Array(Open({ nome: Text, valor: Text }))),
  locId: Int(),
  revisao: Type.Optional(Int({ minimum: 0 })),
})
/** The fields every kind's `data` may carry for the store's indexes (`IndexedData`). */
const Indexed = { externalIdScope: Type.Optional(Text), refs: Type.Optional(Type.Array(Text)) }
const Payout = { ...Indexed, limitDay: Type.Optional(Text), directoryKey: Type.Optional(Text) }
const charge = (fields: { txid: TSchema, location: TSchema, pixCode: TSchema, received: TSchema, cob: TSchema }) => Open({
  ...Indexed,
  ...fields,
  correlationId: Type.Optional(Text),
  payer: Type.Optional(Open({ fullName: Text, document: Text })),
  additionalInfo: Type.Optional(Strings),
  splits: Type.Array(Split),
  autoPayAt: Type.Optional(Instant),
})
const refund = Open({
  ...Indexed,
  originalId: Text,
  rtrId: Text,
  devolucaoId: Text,
  natureza: OneOf(['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE']),
  descricao: Type.Optional(Text),
  reason: Type.Optional(Text),
  motivo: Nullable(Text),
  requestedAt: Instant,
  settledAt: Type.Optional(Instant),
})

/** The kind-specific `data` (`TransactionData` of store/state.ts) each service reads back after a restart or an import. */
const DATA_BY_KIND: Record<TransactionKind, TSchema> = {
  CASH_OUT: Open({ ...Payout, keyType: Text, name: Text, document: Text }),
  CASH_OUT_QRCODE: Open({ ...Payout, qrCode: Text, brCode: BrCodeSchema, name: Type.Optional(Text), document: Type.Optional(Text), chargeId: Type.Optional(Text) }),
  DICT_TRANSFER: Open({
    ...Payout,
    directoryKey: Text,
    priority: OneOf(['HIGH', 'NORM']),
    expiration: Int(),
    expiresAt: Instant,
    settleAt: Type.Optional(Instant),
    currency: Text,
    creditorDocument: Type.Optional(Text),
    ispbDeny: Type.Optional(Type.Array(Text)),
    response: Type.Optional(Open({ endToEndId: Text, eventDate: Text, id: Id, payment: Open({ amount: Type.Number() }), type: OneOf(['PENDING', 'COMPLETED', 'ERROR']) })),
  }),
  SPLIT: Open({ ...Indexed, chargeId: Text, splitIndex: Int({ minimum: 0 }), type: OneOf(['FIXED', 'PERCENTAGE']), value: Type.Number({ minimum: 0 }), immediate: Type.Boolean() }),
  CASH_IN: charge({ txid: Nullable(Text), location: Nullable(Text), pixCode: Nullable(Text), received: Type.Optional(Received), cob: Type.Optional(CobSchema) }),
  COB: charge({ txid: Text, location: Text, pixCode: Text, received: Type.Optional(Received), cob: CobSchema }),
  PIX_IN: charge({ txid: Nullable(Text), location: Nullable(Text), pixCode: Nullable(Text), received: Received, cob: Type.Optional(CobSchema) }),
  REFUND_IN: refund,
  DEVOLUCAO: refund,
  REFUND_RECEIVED: Open({ ...Indexed, originalId: Text, reason: Nullable(Text) }),
}

/** One schema per kind (a union would report only "expected union value" for a broken record). */
const transactionSchema = (kind: TransactionKind): TSchema => Open({
  id: Text,
  seq: Id,
  accountId: Id,
  kind: Type.Literal(kind),
  direction: OneOf(['IN', 'OUT']),
  status: Text,
  amountCents: Cents,
  feeCents: Cents,
  externalId: Type.Optional(Text),
  endToEndId: Type.Optional(Text),
  idempotencyKey: Type.Optional(Text),
  description: Type.Optional(Text),
  pixKey: Type.Optional(Text),
  counterpart: Type.Optional(CounterpartSchema),
  errorCode: Type.Optional(Nullable(Text)),
  errorMessage: Type.Optional(Nullable(Text)),
  scenarios: Type.Optional(Type.Array(Open({ name: Text, params: Strings }))),
  data: DATA_BY_KIND[kind],
  createdAt: Instant,
  updatedAt: Instant,
  dueAt: Type.Optional(Instant),
  history: Type.Array(Open({ status: Text, at: Instant, reason: Type.Optional(Text) })),
})

const Bank = Open({ ispb: Text, name: Text })

const SCHEMAS: Record<Exclude<Collection, 'transactions'>, TSchema> = {
  accounts: AccountSchema,
  directory: Open({
    key: Text,
    keyType: OneOf(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']),
    name: Text,
    document: Text,
    ispb: Text,
    bankName: Text,
    bankCode: Type.Optional(Text),
    accountBranch: Type.Optional(Text),
    accountNumber: Type.Optional(Text),
    accountStatus: Type.Optional(OneOf(['ACTIVE', 'BLOCKED', 'CLOSED'])),
  }),
  armedScenarios: Open({ id: Id, accountId: Id, scenario: Text, endpoint: Nullable(OneOf(ENDPOINTS)), remaining: Nullable(Int({ minimum: 0 })), createdAt: Instant }),
  webhooks: Open({
    id: Id,
    accountId: Id,
    eventType: OneOf(EVENT_TYPES),
    url: Text,
    headers: Strings,
    isActive: Type.Boolean(),
    version: Int({ minimum: 1 }),
    createdAt: Instant,
    updatedAt: Instant,
  }),
  deliveries: Open({
    id: Text,
    seq: Id,
    accountId: Id,
    eventType: OneOf(EVENT_TYPES),
    eventId: Text,
    transactionId: Nullable(Text),
    webhookId: Nullable(Id),
    url: Nullable(Text),
    status: OneOf(DELIVERY_STATUSES),
    requestHeaders: Strings,
    // Any JSON, but there: it is what was sent, and what a redelivery sends again.
    body: Type.Unknown(),
    attempts: Type.Array(Open({
      at: Instant,
      kind: OneOf(['first', 'retry', 'duplicate', 'redeliver']),
      statusCode: Nullable(Int()),
      latencyMs: Nullable(Type.Number()),
      error: Nullable(Text),
      responseBody: Type.Optional(Nullable(Text)),
      requestHeaders: Type.Optional(Strings),
    })),
    nextAttemptAt: Nullable(Instant),
    scenarios: Type.Array(Text),
    failureReason: Type.Optional(Text),
    heldForReorder: Type.Optional(Type.Boolean()),
    createdAt: Instant,
    updatedAt: Instant,
  }),
  meds: Open({
    id: Id,
    accountId: Id,
    endToEnd: Text,
    status: OneOf(['OPEN', 'RECEIVED', 'CANCELLED', 'ANALYZED']),
    reason: OneOf(['REFUND_REQUEST', 'REFUND_CANCELLATION']),
    cause: Nullable(Text),
    description: Nullable(Text),
    analysisResult: Nullable(OneOf(['APPROVED', 'REJECTED'])),
    analysisDetails: Nullable(Text),
    requestingBank: Bank,
    contestedBank: Bank,
    originalTransaction: Nullable(Open({ amount: Type.Number(), type: Text, transactionType: Text, name: Text, document: Text, dateTime: Instant })),
    isReconciled: Type.Boolean(),
    originalTransactionId: Nullable(Id),
    originalTransactionUuid: Type.Optional(Text),
    refundTransactionId: Type.Optional(Nullable(Text)),
    createdAt: Instant,
    updatedAt: Instant,
  }),
  locations: PayloadLocationSchema,
  signingKeys: SigningKeySchema,
}

/** Compiled on first use, with the compiler readDocument loaded. */
const compiled = new Map<string, TypeCheck<TSchema>>()
function checker (collection: Collection, record: unknown): TypeCheck<TSchema> | undefined {
  let name: string = collection
  let schema: () => TSchema
  if (collection === 'transactions') {
    const kind = isObject(record) ? record.kind : undefined
    if (typeof kind !== 'string' || !(TRANSACTION_KINDS as readonly string[]).includes(kind)) return undefined
    name = `transactions:${kind}`
    schema = () => transactionSchema(kind as TransactionKind)
  } else {
    schema = () => SCHEMAS[collection as Exclude<Collection, 'transactions'>]
  }
  let check = compiled.get(name)
  if (!check) compiled.set(name, check = compiler!.Compile(schema()))
  return check
}

/**
 * Where a text stops being JSON, as line and column, and whether it just ran out (a truncated
 * document). JSON.parse says "at position N" only sometimes (V8 words it differently per version),
 * so a small scanner finds the place itself; it runs only when a start is about to fail.
 */
export function jsonErrorLocation (text: string): { line: number, column: number, truncated: boolean } {
  const at = Math.min(jsonErrorOffset(text), text.length)
  let line = 1
  let lineStart = 0
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) { line++; lineStart = i + 1 }
  return { line, column: at - lineStart + 1, truncated: at >= text.length }
}

/** The offset of the first character that breaks the JSON grammar (text.length when the text ends too soon). */
function jsonErrorOffset (text: string): number {
  let i = 0
  const space = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++ }
  const fail = (): never => { throw i }
  const literal = (word: string) => {
    for (const ch of word) { if (text[i] !== ch) fail(); i++ }
  }
  const string = () => {
    i++
    for (;;) {
      if (i >= text.length) fail()
      const ch = text[i]
      if (ch === '"') { i++; return }
      if (ch < ' ') fail()
      if (ch === '\\') {
        i++
        if (i >= text.length) fail()
        if (text[i] === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) { i += k; fail() }
          i += 5
        } else if ('"\\/bfnrt'.includes(text[i])) i++
        else fail()
      } else i++
    }
  }
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (!m) fail()
    i += m![0].length
  }
  const value = (): void => {
    space()
    const ch = text[i]
    if (ch === '{') {
      i++
      space()
      if (text[i] === '}') { i++; return }
      for (;;) {
        space()
        if (text[i] !== '"') fail()
        string()
        space()
        if (text[i] !== ':') fail()
        i++
        value()
        space()
        if (text[i] === ',') { i++; continue }
        if (text[i] === '}') { i++; return }
        fail()
      }
    } else if (ch === '[') {
      i++
      space()
      if (text[i] === ']') { i++; return }
      for (;;) {
        value()
        space()
        if (text[i] === ',') { i++; continue }
        if (text[i] === ']') { i++; return }
        fail()
      }
    } else if (ch === '"') string()
    else if (ch === 't') literal('true')
    else if (ch === 'f') literal('false')
    else if (ch === 'n') literal('null')
    else number()
  }
  try {
    value()
    space()
    return i < text.length ? i : text.length + 1
  } catch (at) {
    return at as number
  }
}

import type { TSchema } from '@sinclair/typebox'
import type { TypeCheck } from '@sinclair/typebox/compiler'
import { parseInstant, SANDBOX_TIME_RANGE, withinSandboxTime } from '../domain/instant.js'
import {
  ClockSchema, COLLECTION_RECORDS, COLLECTIONS, INSTANT_FORMAT, STATE_FORMAT, STATE_FORMAT_VERSION, TRANSACTION_KINDS, TRANSACTION_SCHEMAS, emptyState,
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
      const problem = firstProblem(check, record)
      if (problem !== undefined) { add(`${collection}/${key}${problem}`); continue }
      const field = keyOf(collection)
      const id = String((record as Record<string, unknown>)[field])
      if (id !== key) { add(`${collection}/${key}: the record's ${field} is ${JSON.stringify(id)}`); continue }
      into[key] = record
    }
  }
  references(state, add)

  let clock: ClockRecord | undefined
  if ('clock' in doc) {
    const c = doc.clock
    if (firstProblem(compile('clock', ClockSchema), c) !== undefined) {
      add('clock: must be { now: an ISO 8601 instant, frozen: boolean, offsetMs?: number }')
    } else {
      const { now, frozen, offsetMs } = c as ClockRecord
      if (!withinSandboxTime(parseInstant(now)!)) add(`clock/now: ${now} is outside sandbox time (${SANDBOX_TIME_RANGE})`)
      else clock = { now, frozen, ...(offsetMs !== undefined ? { offsetMs } : {}) }
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
/** What COLLECTION_RECORDS says of any collection (`CollectionRecord` of store/records.ts), read by field name. */
interface Checks {
  key?: string
  sequence?: { name: string, field: string }
  owned?: boolean
}

function references (state: State, add: (problem: string) => void): void {
  const clientIds = new Map<string, number>()
  // A Mercado Pago access token names one account, as a clientId does.
  const accessTokens = new Map<string, number>()
  for (const a of Object.values(state.accounts)) {
    const other = clientIds.get(a.clientId)
    if (other !== undefined) add(`accounts/${a.id}: clientId ${JSON.stringify(a.clientId)} is also account ${other}'s`)
    clientIds.set(a.clientId, a.id)
    const token = a.mercadoPago?.accessToken
    const holder = token === undefined ? undefined : accessTokens.get(token)
    if (holder !== undefined) add(`accounts/${a.id}: mercadoPago.accessToken is also account ${holder}'s`)
    if (token !== undefined) accessTokens.set(token, a.id)
  }
  for (const collection of COLLECTIONS) {
    const about: Checks = COLLECTION_RECORDS[collection]
    const records = Object.entries(state[collection]) as Array<[string, Record<string, unknown>]>
    if (about.owned) {
      for (const [key, record] of records) if (!state.accounts[record.accountId as number]) add(`${collection}/${key}: account ${record.accountId} does not exist`)
    }
    if (about.sequence) {
      const { name, field } = about.sequence
      let max = state.seq[name] ?? 0
      for (const [, record] of records) if ((record[field] as number) > max) max = record[field] as number
      if (max > 0) state.seq[name] = max
    }
  }
  // API Pix answers GET /webhook/{chave} with one webhook: one per account, callback and key.
  const webhooks = new Map<string, number>()
  for (const w of Object.values(state.apiPixWebhooks)) {
    const at = `${w.accountId}\u0000${w.callback}\u0000${w.chave ?? ''}`
    const other = webhooks.get(at)
    if (other !== undefined) add(`apiPixWebhooks/${w.id}: account ${w.accountId} has webhook ${other} for ${w.callback}${w.chave !== undefined ? ` on key ${w.chave}` : ''} already`)
    webhooks.set(at, w.id)
  }
  // The gateway's cobs draw their loc.id from the sequence of API Pix's locations (collection `locations`).
  for (const tx of Object.values(state.transactions)) {
    if (tx.kind === 'COB' && tx.data.cob.locId > (state.seq.loc ?? 0)) state.seq.loc = tx.data.cob.locId
  }
  // A batch of due charges (lotecobv) is keyed by its account and the receiver's own id for it.
  for (const [key, b] of Object.entries(state.cobvBatches)) {
    if (b.key !== `${b.accountId}:${b.id}`) add(`cobvBatches/${key}: the key of batch ${b.id} of account ${b.accountId} is "${b.accountId}:${b.id}"`)
  }
  pixAutomaticoReferences(state, add)
  uniqueTxids(state, add)
}

/**
 * A txid names one charge of its receiver, whatever its kind (docs/api-pix.md, "One txid, one
 * charge"): two charges of one account under one txid (two cobrs, a cob and a cobr...) would each be
 * found, paid and debited as the other.
 */
function uniqueTxids (state: State, add: (problem: string) => void): void {
  const named = new Map<string, string>()
  const claim = (accountId: number, txid: string, where: string): void => {
    const at = `${accountId}\u0000${txid}`
    const other = named.get(at)
    if (other !== undefined) add(`${where}: txid ${txid} of account ${accountId} is also ${other}'s (a txid names one charge of its receiver, cob, cobv or cobr)`)
    else named.set(at, where)
  }
  for (const [key, tx] of Object.entries(state.transactions)) {
    // A received PIX carries the txid of the charge it paid, and is not a charge.
    if (tx.kind === 'COB' || tx.kind === 'COBV') claim(tx.accountId, tx.data.txid, `transactions/${key}`)
  }
  for (const [key, cobr] of Object.entries(state.cobrs)) claim(cobr.accountId, cobr.txid, `cobrs/${key}`)
}

/**
 * Pix Automático's records name each other within one account: a confirmation request and a location
 * their recurrence, a recurrence the location it is served at (bound to it); and a simulated payer's
 * behaviour is one per account and document.
 */
function pixAutomaticoReferences (state: State, add: (problem: string) => void): void {
  const ownRec = (accountId: number, idRec: string) => state.recurrences[idRec]?.accountId === accountId
  for (const s of Object.values(state.solicRecs)) {
    if (!ownRec(s.accountId, s.idRec)) add(`solicRecs/${s.idSolicRec}: recurrence ${s.idRec} is not account ${s.accountId}'s`)
  }
  for (const l of Object.values(state.recLocations)) {
    if (l.idRec !== undefined && !ownRec(l.accountId, l.idRec)) add(`recLocations/${l.id}: recurrence ${l.idRec} is not account ${l.accountId}'s`)
  }
  for (const r of Object.values(state.recurrences)) {
    const loc = r.terms.loc
    if (loc !== undefined && state.recLocations[loc]?.idRec !== r.idRec) add(`recurrences/${r.idRec}: location ${loc} does not serve it`)
  }
  const behaviours = new Map<string, number>()
  for (const b of Object.values(state.payerBehaviours)) {
    const at = `${b.accountId}/${b.document ?? ''}`
    const other = behaviours.get(at)
    if (other !== undefined) add(`payerBehaviours/${b.id}: account ${b.accountId} has behaviour ${other} for ${b.document ?? 'every payer'} already`)
    behaviours.set(at, b.id)
  }
}

/** The field of a collection's records that is their key in the document. */
const keyOf = (collection: Collection): string => (COLLECTION_RECORDS[collection] as Checks).key ?? 'id'

// ---- checking records against their schemas (store/records.ts) -------------------------------------

const AN_INSTANT = '2026-03-10T15:00:00.000Z'

/** Compiled on first use, with the compiler readDocument loaded. */
const compiled = new Map<string, TypeCheck<TSchema>>()
function compile (name: string, schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(name)
  if (!check) compiled.set(name, check = compiler!.Compile(schema))
  return check
}

/** The check of a record of the collection; a transaction's is its kind's, none when its kind is unknown. */
function checker (collection: Collection, record: unknown): TypeCheck<TSchema> | undefined {
  if (collection !== 'transactions') return compile(collection, COLLECTION_RECORDS[collection].schema)
  const kind = isObject(record) ? record.kind : undefined
  if (typeof kind !== 'string' || !(TRANSACTION_KINDS as readonly string[]).includes(kind)) return undefined
  return compile(`transactions:${kind}`, TRANSACTION_SCHEMAS[kind as TransactionKind])
}

/** The values an enumeration of the schemas allows (a union of literals, or one literal); undefined for anything else. */
function enumerated (schema: TSchema): unknown[] | undefined {
  if ('const' in schema) return [schema.const]
  const members = (schema as { anyOf?: TSchema[] }).anyOf
  return members?.every(m => 'const' in m) ? members.map(m => m.const) : undefined
}

/** The first thing wrong with a value, as `path: why`, or undefined when it matches. */
function firstProblem (check: TypeCheck<TSchema>, value: unknown): string | undefined {
  const first = check.Errors(value).First()
  if (!first) return undefined
  const values = enumerated(first.schema)
  const why = first.schema.format === INSTANT_FORMAT
    ? `must be an ISO 8601 instant such as ${AN_INSTANT}, not ${JSON.stringify(first.value)}`
    : values ? `must be one of ${values.join(', ')}, not ${JSON.stringify(first.value)}` : first.message
  return `${first.path}: ${why}`
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

import { refusalProblem } from '../errors/problems.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, CobVBatch, CobVBatchRecord, Mutable } from '../store/state.js'
import type { CobVBatchHold, CobVBatchHolds, CobVRequest, CobVRequests, CobVRevisionRequest, Lifecycle, Ports } from '../ports.js'
import { DueJobs, KeyIndex, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import type { Config } from '../config.js'
import { iso } from './history.js'

/**
 * API Pix's batches of due charges (tag LoteCobV; docs/api-pix.md, lotecobv): PUT creates a batch of
 * cobv requests (or, on an existing batch, sends the creation requests of the very same cobvs again),
 * PATCH revises some of its cobvs, GET reads one and the list. A request is EM_PROCESSAMENTO until the
 * scheduler processes the batch, `settlementDelayMs` of sandbox time later, as PUT or PATCH /cobv/{txid}
 * would (CobVRequests): CRIADA, or NEGADA with the problem that route would have answered. Owns the
 * `cobvBatches` collection.
 */

type Item = Mutable<CobVBatchRecord['items'][number]>

/** PUT /lotecobv/{id}: a description and the cobvs' creation requests, each with its txid. */
export interface CobVBatchRequest {
  descricao: string
  cobsv: Array<CobVRequest & { txid: string }>
}

/** PATCH /lotecobv/{id}: revisions of some of the batch's cobvs, each with its txid. */
export interface CobVBatchRevision {
  descricao?: string
  cobsv?: Array<CobVRevisionRequest & { txid: string }>
}

/** What a batch's `problema` says of a refused request: as PUT or PATCH /cobv/{txid} answers. */
const COBV_PROBLEMS = { problems: { 400: 'CobVOperacaoInvalida', 404: 'CobVNaoEncontrada' } } as const

const cobsvProblem = (why: string): Refusal => invalidRequest(`O objeto loteCobV.cobsV não respeita o _schema_: ${why}`, { fields: ['loteCobV.cobsV'] })

export type CobVBatchDeps = Pick<Ports, 'store' | 'clock' | 'scheduler'> & {
  config: Pick<Config, 'settlementDelayMs'>
  cobvs: CobVRequests
}

/** A batch's key in its collection: its id is the receiver's own, unique per account. */
const batchKey = (accountId: number, id: number): string => `${accountId}:${id}`

export class CobVBatchService implements CobVBatchHolds, Lifecycle {
  /**
   * Each account's txids named by its batches, to the batch's key (a txid is in one batch of its
   * account at most, and a batch never gains nor loses one): what a cobv's creation and a new batch
   * look a txid up in, rather than in every request of every batch.
   */
  private readonly byTxid: KeyIndex<'cobvBatches'>
  /** The batches in the order they were made, of every account (`all`) and of each: GET /lotecobv's list and the control plane's pages. */
  private readonly made: RecordLists<'cobvBatches'>
  /** A batch's processing, at its `dueAt` while requests wait (a PUT or PATCH schedules it again, in place of the one before). */
  private readonly processing: DueJobs<'cobvBatches'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: CobVBatchDeps) {
    this.byTxid = new KeyIndex(deps.store, 'cobvBatches', { keys: batch => batch.items.map(i => i.txid), scope: batch => batch.accountId })
    this.made = new RecordLists(deps.store, 'cobvBatches', batch => ['all', String(batch.accountId)], batch => batch.createdAt)
    this.processing = new DueJobs(deps.store, deps.scheduler, 'cobvBatches', {
      purpose: 'cobv-batch',
      dueAt: batch => batch.dueAt === undefined ? undefined : Date.parse(batch.dueAt),
      run: batch => this.process(batch.key),
    })
    this.derived = [this.byTxid, this.made, this.processing]
  }

  private get store () { return this.deps.store }
  private now (): number { return this.deps.clock.now() }

  /** The account's batch `id`; 404 LoteCobVNaoEncontrado for any other, another account's included. */
  get (account: Account, id: number): CobVBatch {
    const batch = this.store.data.cobvBatches[batchKey(account.id, id)]
    if (batch === undefined) throw new Refusal('NOT_FOUND', `Lote de cobranças com vencimento ${id} não encontrado`)
    return batch
  }

  /** The account's batch (other than `except`) that names `txid` among its requests, and where that request stands. */
  holding (accountId: number, txid: string, except?: number): CobVBatchHold | undefined {
    const batch = this.byTxid.record(txid, accountId)
    if (batch === undefined || batch.id === except) return undefined
    const item = batch.items.find(i => i.txid === txid)
    return item === undefined ? undefined : { batchId: batch.id, status: item.status }
  }

  /**
   * PUT /lotecobv/{id}. A new batch: none of its txids may be a charge of the account already, nor
   * named by another batch. An existing batch: the same txids, no more and no fewer; each request is
   * processed again (a cobv created is replaced, a refused one tried again).
   */
  put (account: Account, id: number, body: CobVBatchRequest, host: string, scenarios: AppliedScenario[]): void {
    const txids = uniqueTxids(body.cobsv)
    const key = batchKey(account.id, id)
    const existing = this.store.data.cobvBatches[key]
    if (existing !== undefined) {
      const given = new Set(txids)
      const same = existing.items.length === txids.length && existing.items.every(i => given.has(i.txid))
      if (!same) throw cobsvProblem(`o lote ${id} já existe com as cobranças ${existing.items.map(i => i.txid).join(', ')}: uma alteração do lote deve trazer exatamente as mesmas, nem mais nem menos`)
    } else {
      for (const txid of txids) {
        // A txid names one charge of the account, whatever its kind (cob, cobv, cobr).
        if (this.store.chargeOfTxid(account.id, txid) !== undefined) throw cobsvProblem(`a cobrança de txid ${txid} já encontra-se criada`)
        const held = this.holding(account.id, txid)
        if (held !== undefined) throw cobsvProblem(`o txid ${txid} já pertence ao lote ${held.batchId}`)
      }
    }
    const requests = new Map(body.cobsv.map(({ txid, ...request }) => [txid, request]))
    this.store.transact(() => {
      const items: Item[] = existing === undefined
        ? txids.map(txid => ({ txid, status: 'EM_PROCESSAMENTO' }))
        : existing.items.map(i => structuredClone(i) as Item)
      for (const item of items) waitFor(item, { revision: false, body: requests.get(item.txid)! })
      this.store.put('cobvBatches', {
        key,
        id,
        accountId: account.id,
        descricao: body.descricao,
        createdAt: existing?.createdAt ?? iso(this.now()),
        host: existing?.host ?? host,
        ...(scenarios.length > 0 ? { scenarios } : {}),
        dueAt: iso(this.now() + this.deps.config.settlementDelayMs),
        items,
      })
      const batch = this.store.data.cobvBatches[key]
      if (existing === undefined) {
        this.byTxid.follow(batch)
        this.made.add(batch)
      }
      this.processing.follow(batch)
    })
  }

  /** PATCH /lotecobv/{id}: the revisions of some of the batch's cobvs, each processed as PATCH /cobv/{txid}. */
  revise (account: Account, id: number, body: CobVBatchRevision): void {
    const batch = this.get(account, id)
    const revisions = body.cobsv ?? []
    const txids = uniqueTxids(revisions)
    const foreign = txids.find(txid => this.byTxid.get(txid, account.id) !== batch.key)
    if (foreign !== undefined) throw cobsvProblem(`a cobrança de txid ${foreign} não consta do lote ${id}: um lote não ganha nem perde cobranças`)
    const requests = new Map(revisions.map(({ txid, ...revision }) => [txid, revision]))
    this.store.transact(() => {
      this.store.update('cobvBatches', batch.key, d => {
        if (body.descricao !== undefined) d.descricao = body.descricao
        if (requests.size === 0) return
        for (const item of d.items) {
          const revision = requests.get(item.txid)
          if (revision !== undefined) waitFor(item, { revision: true, body: revision })
        }
        d.dueAt = iso(this.now() + this.deps.config.settlementDelayMs)
      })
      this.processing.follow(this.store.data.cobvBatches[batch.key])
    })
  }

  /** The account's batches created within the range, in the order they were made (GET /lotecobv lists them). */
  ofAccount (accountId: number, created: InstantRange): CobVBatch[] {
    return this.made.within(String(accountId), created)
  }

  /** The control plane's page of batches, of every account or one, the last made first (`RecordLists.newestFirst`, with the same account). */
  page (accountId: number | undefined, limit: number, cursor?: number): { batches: CobVBatch[], nextCursor?: number } {
    const { records, nextCursor } = this.made.newestFirst(accountId === undefined ? 'all' : String(accountId), limit, cursor)
    return { batches: records, ...(nextCursor !== undefined ? { nextCursor } : {}) }
  }

  /** A batch as API Pix shows it (LoteCobVConsultado): each request's txid and status, its problem once refused. */
  view (batch: CobVBatch) {
    return {
      id: batch.id,
      descricao: batch.descricao,
      criacao: batch.createdAt,
      cobsv: batch.items.map(i => ({
        txid: i.txid,
        status: i.status,
        ...(i.problema !== undefined ? { problema: i.problema } : {}),
        ...(i.criacao !== undefined ? { criacao: i.criacao } : {}),
      })),
    }
  }

  /**
   * The job: every request EM_PROCESSAMENTO, each in a unit of its own inside the job's (a refused
   * one leaves nothing behind), then the batch with their outcomes.
   */
  private process (key: string): void {
    const batch = this.store.data.cobvBatches[key]
    if (batch?.dueAt === undefined || Date.parse(batch.dueAt) > this.now()) return
    const account = this.store.account(batch.accountId)
    if (account === undefined) return
    const by = { batch: batch.id, ...(batch.scenarios !== undefined ? { scenarios: [...batch.scenarios] as AppliedScenario[] } : {}) }
    const outcomes = new Map<string, Item>()
    for (const item of batch.items) {
      const pending = item.pending
      if (pending === undefined) continue
      try {
        const charge = this.store.transact(() => pending.revision
          ? this.deps.cobvs.revise(account, item.txid, pending.body as CobVRevisionRequest, by)
          : this.deps.cobvs.put(account, item.txid, pending.body as CobVRequest, batch.host, by).charge)
        outcomes.set(item.txid, { txid: item.txid, status: 'CRIADA', criacao: charge.createdAt })
      } catch (err) {
        if (!(err instanceof Refusal)) throw err
        outcomes.set(item.txid, { txid: item.txid, status: 'NEGADA', problema: refusalProblem(err, COBV_PROBLEMS) })
      }
    }
    this.store.update('cobvBatches', key, d => {
      d.items = d.items.map(i => outcomes.get(i.txid) ?? i)
      delete d.dueAt
    })
  }
}

/** The txids of a batch's requests, each once (a txid twice is one charge asked for twice). */
function uniqueTxids (cobsv: ReadonlyArray<{ txid: string }>): string[] {
  const txids = cobsv.map(c => c.txid)
  const seen = new Set<string>()
  for (const txid of txids) {
    if (seen.has(txid)) throw cobsvProblem(`o txid ${txid} aparece mais de uma vez`)
    seen.add(txid)
  }
  return txids
}

/** A request of a batch waits to be processed: EM_PROCESSAMENTO, its earlier outcome kept until then (the cobv's creation). */
function waitFor (item: Item, pending: { revision: boolean, body: unknown }): void {
  item.status = 'EM_PROCESSAMENTO'
  item.pending = pending
  delete item.problema
}

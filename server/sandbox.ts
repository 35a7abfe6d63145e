import { randomBytes } from 'node:crypto'
import type { Config } from './config.js'
import { Clock } from './engine/clock.js'
import { Scheduler } from './engine/scheduler.js'
import { createRng, type SeededRng } from './domain/ids.js'
import { parseInstant, SANDBOX_TIME_MAX, SANDBOX_TIME_MIN, SANDBOX_TIME_RANGE } from './domain/instant.js'
import { StartupError } from './errors/startup.js'
import { readWebhookTls } from './startup.js'
import { loadFixtures, type Fixtures } from './fixtures.js'
import type { CobVBatchHold, ContractCodes } from './ports.js'
import type { DomainEvents, Notifier } from './events.js'
import { Lifecycles } from './store/lifecycle.js'
import { Store, type StoreOptions } from './store/store.js'
import { emptyState, type ClockRecord, type RngState, type State } from './store/state.js'
import { TokenService } from './auth/tokens.js'
import { AccountService } from './services/accounts.js'
import { ApiPixCobs } from './services/api-pix-cobs.js'
import { ApiPixPixService } from './services/api-pix-pix.js'
import { ApiPixWebhookService } from './services/api-pix-webhooks.js'
import { ApiPixCobVs } from './services/api-pix-cobvs.js'
import { CobVBatchService } from './services/cobv-batches.js'
import { PspSettingsService } from './services/psp-settings.js'
import { LocationService } from './services/locations.js'
import { RecurrenceService } from './services/recurrences.js'
import { PayerSimulation } from './services/simulated-payers.js'
import { PayloadSigner } from './services/payload-signing.js'
import { ChargeService } from './services/charges.js'
import { ChargePaymentService } from './services/charge-payments.js'
import { ReceivedPixService } from './services/received-pix.js'
import { CobRService } from './services/cobrs.js'
import { DirectoryService } from './services/directory.js'
import { RequestJournal } from './journal/journal.js'
import { transactionLookup } from './journal/transactions.js'
import { ReportService, type ReportDeps } from './report/service.js'
import { MedService } from './services/med.js'
import { PayoutService } from './services/payouts.js'
import { ChargeStages } from './services/charge-stages.js'
import { RefundService } from './services/refunds.js'
import { ExpiringRefs } from './services/expiring-refs.js'
import { ScenarioService } from './services/scenarios.js'
import { SplitService } from './services/splits.js'
import { TransactionService } from './services/transactions.js'
import { WebhookService, type WebhookServiceOptions } from './webhooks/service.js'
import { DeliveryTypes, type DeliveryType } from './webhooks/samples.js'

export interface SandboxOptions {
  /** Wall-clock source; tests may pass a fake. */
  realNow?: () => number
  fixtures?: Fixtures
  /** Store tuning for tests (a compaction floor, a file system that fails on cue). */
  store?: Omit<StoreOptions, 'file'>
  /** Where failures that no request sees go (a job that threw, webhook bookkeeping, a failed rebuild). */
  logError?: (err: unknown, message: string, context?: Record<string, unknown>) => void
  /** The console's lines for a failed webhook attempt and a delivery given up. */
  webhookLines?: Pick<WebhookServiceOptions, 'onAttemptFailed' | 'onGaveUp'>
  /** A built webhook sender thread to run (tests: the command bundle's), instead of the one beside the code. */
  senderScript?: URL
  /**
   * The dialects' notifiers (server/dialects/), in the registry's order: each domain event a service
   * emits goes to every one of them, in the emitting unit. None: nothing is notified.
   */
  notifiers?: (sandbox: Sandbox) => Notifier[]
  /** The dialects' delivery event types, in the registry's order (their samples, their receivers). None: none. */
  deliveries?: (sandbox: Sandbox) => ReadonlyArray<Readonly<Record<string, DeliveryType>>>
  /** What the integration report grades: each dialect's requests, and the catalogue of checks (server/report/). None: no check. */
  report?: Pick<ReportDeps, 'dialects' | 'checks'>
}

/** Where a full reset starts the clock instead of the settings' --clock-start and --clock: `POST /__sandbox/reset` with `clockStart`, `clock`. */
export interface ClockStart {
  /** The instant (ms), within sandbox time; the settings' start when absent. */
  at?: number
  frozen?: boolean
}

/** A whole state to take over (a snapshot import): its records, and the clock and random stream it brings. */
export interface ImportedState {
  state: State
  clock?: ClockRecord
  rng?: RngState
}

/**
 * Everything the sandbox is, without HTTP: built once by `createSandbox` and hung on the Fastify
 * instance as `app.sandbox` by buildApp. Tests build their own with a memory store, a frozen clock
 * and a fixed seed.
 */
export interface Sandbox {
  readonly config: Config
  readonly version: string
  readonly seed: string
  readonly clock: Clock
  readonly scheduler: Scheduler
  readonly rng: SeededRng
  readonly store: Store
  readonly fixtures: Fixtures
  readonly tokens: TokenService
  readonly accounts: AccountService
  readonly journal: RequestJournal
  readonly scenarios: ScenarioService
  readonly webhooks: WebhookService
  /** The delivery event types of the app's dialects: their samples and their receivers besides the registrations. */
  readonly deliveries: DeliveryTypes
  readonly transactions: TransactionService
  readonly directory: DirectoryService
  readonly payouts: PayoutService
  /** Charges as their receiver makes them, their payment, and a PIX received without one. */
  readonly charges: ChargeService
  readonly chargePayments: ChargePaymentService
  readonly receivedPix: ReceivedPixService
  readonly splits: SplitService
  readonly refunds: RefundService
  readonly med: MedService
  /** API Pix's payload locations, the key that signs their payloads and its cobs (docs/api-pix.md). */
  readonly locations: LocationService
  readonly signer: PayloadSigner
  readonly apiPixCobs: ApiPixCobs
  /** API Pix's received PIX and their devoluções, and its webhooks per key (docs/api-pix.md). */
  readonly apiPixPix: ApiPixPixService
  readonly apiPixWebhooks: ApiPixWebhookService
  /** API Pix's due charges (cobv) over the charges, and its batches of them (lotecobv). */
  readonly apiPixCobVs: ApiPixCobVs
  readonly cobvBatches: CobVBatchService
  /** The settings a PSP's own API keeps per account (Efí's /v2/gn/config). */
  readonly pspSettings: PspSettingsService
  /** API Pix's recurring charges of Pix Automático (docs/api-pix.md, "Recurring charges"). */
  readonly cobrs: CobRService
  /** The integration report: what each account's integration did, graded (server/report/). */
  readonly report: ReportService
  /** Pix Automático (docs/api-pix.md): recurrences, their locations and confirmation requests, and the simulated payers. */
  readonly recurrences: RecurrenceService
  readonly payers: PayerSimulation
  /** True once the state is loaded and the routes are ready (GET /__sandbox/health). */
  ready: boolean
  /** What opening the data file did that the start should say (journals set aside): one line each. */
  readonly notices: string[]
  /** Opens the store (the data file, if any) and brings every service up on the state it holds. */
  open (): Promise<void>
  /**
   * A full reset: the fixtures again, the clock where the settings start it (or where `clock` says, for
   * this reset alone), nothing kept in memory.
   */
  reset (clock?: ClockStart): void
  /** Replaces the whole state (a snapshot import) and brings every service up on it. */
  replaceState (imported: ImportedState): void
  /**
   * The whole state as a snapshot exports it. Without the accounts' incarnations: they are the lives of
   * this run's accounts, which an import ends (it starts new ones), so an export, its import and the
   * next export are the same document.
   */
  exportState (): ReturnType<Sandbox['store']['snapshot']>
}

/**
 * Builds the sandbox's parts in the order they depend on each other: the engine (clock, scheduler,
 * random stream, store), then each service with only the ports it uses. One place knows the wiring,
 * so no service reaches another through a shared context.
 */
export function createSandbox (config: Config, version: string, opts: SandboxOptions = {}): Sandbox {
  const logError = opts.logError ?? (() => {})
  const seed = config.seed ?? randomBytes(6).toString('hex')
  const clock = new Clock(opts.realNow, { min: SANDBOX_TIME_MIN, max: SANDBOX_TIME_MAX })
  /**
   * The clock as the settings start it: at --clock-start (or real time), frozen with --clock frozen. A
   * new state starts so, and so does a full reset; a data file that holds a state brings its own clock.
   */
  const startClock = (over: ClockStart = {}): void => {
    const start = over.at ?? (config.clockStart !== undefined ? parseInstant(config.clockStart) : null)
    if (over.at === undefined && config.clockStart !== undefined && (start === null || !clock.accepts(start))) {
      throw new StartupError(`--clock-start ${config.clockStart} is not an instant the sandbox clock can take (ISO 8601, ${SANDBOX_TIME_RANGE})`)
    }
    const now = start ?? (opts.realNow ?? Date.now)()
    clock.restore({ now: new Date(now).toISOString(), frozen: over.frozen ?? config.clock === 'frozen', offsetMs: start === null ? 0 : undefined }, start === null ? 'continue' : 'instant')
  }
  startClock()

  const store = new Store({ compactionFloorBytes: config.journalCompactBytes, onError: err => logError(err, 'following a rollback failed'), ...opts.store, file: config.data })
  // One commit point per job: each runs as a unit of the store and is written when it ends.
  const scheduler = new Scheduler({
    clock,
    onError: (err, job) => logError(err, 'scheduled job failed', { job: job.kind }),
    runJob: run => { store.unit(run) },
  })
  const fixtures = opts.fixtures ?? loadFixtures(config.fixtures)
  const rng = createRng(seed)
  const engine = { config, clock, scheduler, rng, store, fixtures }

  const tokens = new TokenService(config.jwtSecret ?? randomBytes(32).toString('hex'), () => clock.now())
  const accounts = new AccountService(store, fixtures, clock, rng)
  const journal = new RequestJournal(config.journalSize, transactionLookup(store), id => store.account(id) !== undefined)
  const scenarios = new ScenarioService(store, clock)
  const deliveries = new DeliveryTypes()
  const webhookTls = readWebhookTls(config)
  const webhooks = new WebhookService({ ...engine, version, identity: webhookTls.client, ...(webhookTls.receiverCa !== undefined ? { receiverCa: webhookTls.receiverCa } : {}), ...(opts.senderScript !== undefined ? { senderScript: opts.senderScript } : {}) }, { onError: err => logError(err, 'webhook bookkeeping failed'), ...opts.webhookLines, types: deliveries })
  // The capabilities say what happened through `events`; each dialect's notifier (given below, once
  // every service exists) turns it into its webhooks, in the registry's order, in the same unit.
  const notifiers: Notifier[] = []
  const events: DomainEvents = {
    emit: event => {
      for (const notifier of notifiers) notifier.notify(event)
    },
  }
  const transactions = new TransactionService(engine)
  const directory = new DirectoryService(engine)
  const expiringRefs = new ExpiringRefs(engine)
  // A payment's stage moves with what its refunds returned; the refunds tell the stages when one ends.
  const stages = new ChargeStages({ store, refundedCents: charge => refunds.refundedCents(charge) })
  const refunds = new RefundService({ ...engine, events, received: transactions, expiringRefs, stages })
  const receivedPix = new ReceivedPixService({ ...engine, events })
  // A split to an account of this sandbox arrives there as a received PIX.
  const splits = new SplitService({ ...engine, incoming: receivedPix.incoming })
  const locations = new LocationService(engine)
  // A charge paid through a composite code activates its recurrence (journeys 3 and 4), built below.
  // The static code of a contract pays the account its recurrence's location names (journey 4).
  const contractCodes: ContractCodes = { receiverOf: (recLocation, key) => recurrences.contractCodes.receiverOf(recLocation, key), paid: payment => recurrences.contractCodes.paid(payment) }
  const chargePayments = new ChargePaymentService({ ...engine, events, splits, received: receivedPix, stages, locations, recurrences: { chargePaid: payment => recurrences.activations.chargePaid(payment) }, contractCodes })
  const charges = new ChargeService({ ...engine, events, expiringRefs, autoPay: chargePayments.autoPay, stages })
  const payouts = new PayoutService({ ...engine, events, charges: chargePayments.payments, directory: directory.holders, contractCodes: chargePayments.contractPayments, returns: refunds })
  const med = new MedService({ ...engine, events, received: transactions, refunds, accounts })
  const signer = new PayloadSigner(engine)
  const apiPixPix = new ApiPixPixService({ store, refunds })
  const apiPixCobs = new ApiPixCobs({ store, clock, cobs: charges, locations, signer })
  const apiPixWebhooks = new ApiPixWebhookService({ store, clock, callbacks: webhooks, keys: directory.keys })
  // The batches process their requests through the cobvs, which ask the batches which txids they hold.
  const apiPixCobVs = new ApiPixCobVs({ store, clock, cobvs: charges, locations, signer, batches: { holding: (accountId, txid, except): CobVBatchHold | undefined => cobvBatches.holding(accountId, txid, except) } })
  const cobvBatches = new CobVBatchService({ store, clock, scheduler, config, cobvs: apiPixCobVs })
  const pspSettings = new PspSettingsService({ store, clock, rng })
  const report = new ReportService({ store, clock, rng, accounts, journal, webhooks, deliveries, dialects: opts.report?.dialects ?? [], checks: opts.report?.checks ?? [] })
  const payers = new PayerSimulation(engine)
  const recurrences = new RecurrenceService({
    ...engine,
    events,
    payers,
    charges: {
      // The cob's or cobv's BR Code while it shows a location (a cob made on the gateway always does).
      chargeCode: (account, txid) => {
        const charge = charges.cobOrCobV(account, txid)
        if (charge === undefined) return undefined
        const located = charge.kind === 'COB' ? apiPixCobs.locationOf(charge) !== null : locations.ofCharge(charge) !== undefined
        return { kind: charge.kind, pixCopiaECola: located ? charge.data.pixCode : null }
      },
    },
    merchantCity: fixtures.institution.city,
    keys: directory.keys,
  })
  const cobrs = new CobRService({ ...engine, events, recurrences, payers, incoming: receivedPix.incoming })
  transactions.register(payouts.pendingOperations)
  transactions.register(refunds.pendingOperations)

  // One order for every lifecycle step (the order the services were wired in before, which due jobs
  // of the same instant keep); the journal is memory only and starts over with a reset.
  const lifecycle = new Lifecycles([webhooks, directory, charges, chargePayments, receivedPix, splits, payouts, refunds, stages, med, locations, signer, cobvBatches, recurrences, cobrs, apiPixWebhooks, expiringRefs, { afterReset: () => journal.clear() }])
  store.onAccountRemoved((id, removed) => lifecycle.accountRemoved(id, removed))
  const afterLoad = (): void => lifecycle.load()

  const sandbox: Sandbox = {
    config,
    version,
    seed,
    clock,
    scheduler,
    rng,
    store,
    fixtures,
    tokens,
    accounts,
    journal,
    scenarios,
    webhooks,
    deliveries,
    transactions,
    directory,
    payouts,
    charges,
    chargePayments,
    receivedPix,
    splits,
    refunds,
    med,
    locations,
    signer,
    apiPixCobs,
    apiPixPix,
    apiPixWebhooks,
    apiPixCobVs,
    cobvBatches,
    pspSettings,
    cobrs,
    report,
    recurrences,
    payers,
    ready: false,
    notices: [],

    async open () {
      const opened = await store.open({ clock: { record: () => clock.snapshot(), restore: c => clock.restore(c, 'continue') }, rng })
      if (opened.notice) sandbox.notices.push(opened.notice)
      // A state brings its own clock, which continues where it stood (its offset from wall time); the
      // settings' start applies to a new state and to a reset.
      if (opened.clock) clock.restore(opened.clock, 'continue')
      // And its random stream, which continues too: starting again from the seed would hand out ids the
      // state already holds. A state of the previous format kept none: one is drawn from the seed and the
      // state's sequences, which differ from any earlier start on it.
      if (opened.rng) rng.restore(opened.rng)
      else if (opened.found) rng.restore(createRng(`${seed}/${JSON.stringify(store.data.seq)}`).state())
      // From here on a move of the clock is a change the next write records (a first write records it anyway).
      clock.onChange(() => store.clockChanged())
      if (!opened.found) accounts.seedFixtures()
      // After a rollback (a failed unit, a failed write) each service mends what it keeps about the
      // records put back, and nothing else; a whole state put back (a failed reset or import) is a load.
      store.onRestored(restored => {
        if (!restored.whole) {
          lifecycle.restored(restored)
          return
        }
        scheduler.clear()
        afterLoad()
      })
      // While the store cannot write, no job runs (each would be rolled back, over and over).
      store.onHealthChange(health => { if (health.status === 'ok') scheduler.resume(); else scheduler.pause() })
      store.transact(afterLoad)
      try {
        await store.commit()
      } catch (err) {
        throw new StartupError(`--data ${config.data!}: the first write failed (${(err as Error).message}); check the free space and permissions of its directory`)
      }
    },

    reset (start) {
      store.transact(() => {
        scheduler.clear()
        store.replace(emptyState())
        // Everything starts over, the clock too: where the settings (or this reset) start it, before the fixtures are dated.
        startClock(start)
        accounts.seedFixtures()
        lifecycle.reset()
      })
    },

    replaceState (imported) {
      store.transact(() => {
        scheduler.clear()
        store.replace(imported.state)
        accounts.renewIncarnations()
        afterLoad()
        if (imported.clock) clock.restore(imported.clock, 'instant')
        // A stream the snapshot's ids did not come from: where a data file kept it, else one drawn from the
        // seed and the snapshot's sequences (a fresh start with the same seed would repeat its ids).
        rng.restore(imported.rng ?? createRng(`${seed}/${JSON.stringify(store.data.seq)}`).state())
      })
    },

    exportState () {
      const snapshot = store.snapshot()
      const accounts = Object.fromEntries(Object.entries(snapshot.accounts).map(([id, { incarnation: _life, ...account }]) => [id, account]))
      return { ...snapshot, accounts }
    },
  }
  notifiers.push(...opts.notifiers?.(sandbox) ?? [])
  for (const types of opts.deliveries?.(sandbox) ?? []) deliveries.add(types)
  return sandbox
}

import type { AccountLookup, JournalReads, Ports, WebhookReads } from '../ports.js'
import { Refusal } from '../errors/refusal.js'
import type { DeliveryTypes } from '../webhooks/samples.js'
import { isEventType, type Delivery } from '../webhooks/types.js'
import { BAD_SIGNATURE, type CheckDefinition, type CheckResult, type CheckStatus } from './checks.js'
import { requestFact, type Dialect, type GradedDialect, type IntegrationFacts, type RequestFact } from './facts.js'

/**
 * The integration report (a PSP's homologation, automated): every check of the catalogue graded on
 * what one account's integration did, and the probe that sends it a badly signed webhook.
 */
export type Verdict = 'passed' | 'failed' | 'incomplete'

export interface CheckReport extends CheckResult {
  id: string
  title: string
  section: string
  /** Where the section is, relative to the repository (and the npm package's docs). */
  docs: string
  /** The APIs whose use it grades (checks.ts). */
  dialects: Dialect[]
}

export interface Report {
  accountId: number
  generatedAt: string
  /**
   * failed: some check failed; incomplete: none failed, and some were not exercised (or none applied);
   * passed: every check that applies passed.
   */
  verdict: Verdict
  counts: Record<CheckStatus, number>
  checks: CheckReport[]
  /** How much the report read: the journal keeps the newest `--journal-size` requests of each account. */
  read: { requests: number, deliveries: number, transactions: number }
}

export type ReportDeps = Pick<Ports, 'store' | 'clock' | 'rng'> & {
  /** The dialects whose requests are graded, each its own (server/dialects/: a descriptor's report part). */
  dialects: readonly GradedDialect[]
  /** The catalogue: the checks of more than one dialect, then each dialect's (checks.ts, catalogueOf). */
  checks: readonly CheckDefinition[]
  accounts: AccountLookup
  journal: JournalReads
  webhooks: WebhookReads
  /** The dialects' delivery event types: the probe's sample, and the account's own webhooks of a type (API Pix's), which it reaches too. */
  deliveries: Pick<DeliveryTypes, 'types' | 'sample' | 'receivers'>
}

/**
 * A check graded; one its integration never exercised, of APIs it made no request to, does not apply
 * to it (an integration of API Pix alone is not asked for the gateway's pay-outs, nor the reverse).
 */
function grade (check: CheckDefinition, facts: IntegrationFacts, used: ReadonlySet<string>, titleOf: (dialect: Dialect) => string): CheckResult {
  const result = check.evaluate(facts)
  if (result.status !== 'not_exercised' || check.dialects.some(d => used.has(d))) return result
  return { status: 'not_applicable', summary: `the integration made no request to ${check.dialects.map(titleOf).join(' or ')}`, evidence: [] }
}

export class ReportService {
  constructor (private readonly deps: ReportDeps) {}

  /** The account's requests from the journal, oldest first, as facts. */
  private requests (accountId: number): RequestFact[] {
    const entries = this.deps.journal.list({ accountId }, { limit: Number.MAX_SAFE_INTEGER })
    const facts: RequestFact[] = []
    for (let i = entries.length - 1; i >= 0; i--) {
      const fact = requestFact(entries[i], this.deps.dialects)
      if (fact) facts.push(fact)
    }
    return facts
  }

  report (accountId: number): Report {
    this.deps.accounts.require(accountId)
    const facts = {
      accountId,
      requests: this.requests(accountId),
      deliveries: this.deps.webhooks.log.query({ accountId }, Infinity).reverse(),
      transactions: this.deps.store.transactionsOf(accountId),
      recurrences: Object.values(this.deps.store.data.recurrences).filter(r => r.accountId === accountId),
      cobrs: Object.values(this.deps.store.data.cobrs).filter(c => c.accountId === accountId).sort((a, b) => a.id - b.id),
    }
    const used = new Set(facts.requests.filter(r => r.accountId === accountId).map(r => r.family))
    const titleOf = (d: Dialect): string => this.deps.dialects.find(x => x.name === d)?.title ?? d
    const graded = this.deps.checks.map(c => ({ id: c.id, title: c.title, section: c.section, docs: `docs/${c.page}${c.anchor}`, dialects: [...c.dialects], ...grade(c, facts, used, titleOf) }))
    const counts: Record<CheckStatus, number> = { passed: 0, failed: 0, not_exercised: 0, not_applicable: 0 }
    for (const c of graded) counts[c.status]++
    return {
      accountId,
      generatedAt: new Date(this.deps.clock.now()).toISOString(),
      verdict: counts.failed > 0 ? 'failed' : counts.not_exercised > 0 || counts.passed === 0 ? 'incomplete' : 'passed',
      counts,
      checks: graded,
      read: { requests: facts.requests.length, deliveries: facts.deliveries.length, transactions: facts.transactions.length },
    }
  }

  /**
   * Sends a sample event whose signature is wrong to the account's receivers of one event type (the
   * given one, else the first that has a receiver): its registrations and, for a callback of API Pix,
   * the account's webhooks of it. A receiver that checks signatures refuses it.
   */
  probe (accountId: number, eventType?: string): Delivery[] {
    const account = this.deps.accounts.require(accountId)
    const callbackUrls = (t: string): string[] => this.deps.deliveries.receivers(t, accountId)
    const received = (t: string): boolean => (isEventType(t) && this.deps.webhooks.registrations.activeFor(accountId, t).length > 0) || callbackUrls(t).length > 0
    const type = eventType ?? this.deps.deliveries.types.find(received)
    if (type === undefined || !received(type)) {
      throw new Refusal('NO_RECEIVER', `Account ${accountId} has no active webhook${eventType ? ` for ${eventType}` : ''}: register one (POST /__sandbox/webhooks), or configure a webhook of its dialect (API Pix's, Mercado Pago's notification URL), before sending the probe`)
    }
    const transactionId = this.deps.rng.uuid()
    const payload = this.deps.deliveries.sample(type, { account, transactionId, nowMs: this.deps.clock.now(), rng: this.deps.rng })
    return this.deps.webhooks.publishTo<string>({ accountId, eventType: type, transactionId, payload, scenarios: [{ name: BAD_SIGNATURE, params: {} }] }, callbackUrls(type))
  }
}

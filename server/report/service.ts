import type { AccountLookup, JournalReads, Ports, WebhookReads } from '../ports.js'
import { Refusal } from '../errors/refusal.js'
import { samplePayload } from '../webhooks/samples.js'
import { EVENT_TYPES, type Delivery, type EventType } from '../webhooks/types.js'
import { BAD_SIGNATURE, checks, type CheckResult, type CheckStatus } from './checks.js'
import { requestFact, type RequestFact } from './facts.js'

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
}

export interface Report {
  accountId: number
  generatedAt: string
  /** failed: some check failed; incomplete: none failed, some not exercised; passed: every check passed. */
  verdict: Verdict
  counts: Record<CheckStatus, number>
  checks: CheckReport[]
  /** How much the report read: the journal keeps the newest `--journal-size` requests of each account. */
  read: { requests: number, deliveries: number, transactions: number }
}

export type ReportDeps = Pick<Ports, 'store' | 'clock' | 'rng'> & {
  accounts: AccountLookup
  journal: JournalReads
  webhooks: WebhookReads
}

export class ReportService {
  constructor (private readonly deps: ReportDeps) {}

  /** The account's requests from the journal, oldest first, as facts. */
  private requests (accountId: number): RequestFact[] {
    const entries = this.deps.journal.list({ accountId }, { limit: Number.MAX_SAFE_INTEGER })
    const facts: RequestFact[] = []
    for (let i = entries.length - 1; i >= 0; i--) {
      const fact = requestFact(entries[i])
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
    }
    const graded = checks.map(c => ({ id: c.id, title: c.title, section: c.section, docs: `docs/gateway.md${c.anchor}`, ...c.evaluate(facts) }))
    const counts: Record<CheckStatus, number> = { passed: 0, failed: 0, not_exercised: 0 }
    for (const c of graded) counts[c.status]++
    return {
      accountId,
      generatedAt: new Date(this.deps.clock.now()).toISOString(),
      verdict: counts.failed > 0 ? 'failed' : counts.not_exercised > 0 ? 'incomplete' : 'passed',
      counts,
      checks: graded,
      read: { requests: facts.requests.length, deliveries: facts.deliveries.length, transactions: facts.transactions.length },
    }
  }

  /**
   * Sends a sample event whose signature is wrong to the account's receivers of one event type (the
   * given one, else the first that has an active URL): a receiver that checks signatures refuses it.
   */
  probe (accountId: number, eventType?: EventType): Delivery[] {
    const account = this.deps.accounts.require(accountId)
    const type = eventType ?? EVENT_TYPES.find(t => this.deps.webhooks.registrations.activeFor(accountId, t).length > 0)
    if (type === undefined || this.deps.webhooks.registrations.activeFor(accountId, type).length === 0) {
      throw new Refusal('NO_RECEIVER', `Account ${accountId} has no active webhook${eventType ? ` for ${eventType}` : ''}: register one (POST /__sandbox/webhooks) before sending the probe`)
    }
    const transactionId = this.deps.rng.uuid()
    const payload = samplePayload(type, { account, transactionId, nowMs: this.deps.clock.now(), rng: this.deps.rng })
    return this.deps.webhooks.publish({ accountId, eventType: type, transactionId, payload, scenarios: [{ name: BAD_SIGNATURE, params: {} }] })
  }
}

import type { Ports } from '../ports.js'
import type { Account, PspReport, PspSettings, PspSplitConfig, PspSplitLink } from '../store/state.js'
import { iso } from './history.js'

/**
 * What a PSP's own API keeps per account: its settings (Efí's `GET`/`PUT /v2/gn/config`, docs/efi.md)
 * the reports it was asked for (Efí's reconciliation report), its split configurations and the charges
 * linked to them (Efí's split); the one owner of the `pspSettings`, `pspReports`, `pspSplitConfigs` and
 * `pspSplitLinks` records. It keeps them as the PSP's API validated them; what they mean is that
 * API's to read.
 */
export class PspSettingsService {
  constructor (private readonly deps: Pick<Ports, 'store' | 'clock' | 'rng'>) {}

  /** A report asked for: the same account, PSP, day and types as one asked before is that one. */
  requestReport (account: Account, psp: string, day: string, types: readonly string[]): PspReport {
    const sorted = [...new Set(types)].sort()
    // An account asks for few reports: its own are read whole.
    const same = Object.values(this.deps.store.data.pspReports).find(r => r.accountId === account.id && r.psp === psp && r.day === day && r.types.join() === sorted.join())
    if (same !== undefined) return same
    const record = { id: this.deps.rng.uuid(), accountId: account.id, psp, day, types: sorted, requestedAt: iso(this.deps.clock.now()) }
    return this.deps.store.transact(() => this.deps.store.add('pspReports', record))
  }

  /** A report of the account, or undefined. */
  report (account: Account, id: string): PspReport | undefined {
    const r = this.deps.store.data.pspReports[id]
    return r !== undefined && r.accountId === account.id ? r : undefined
  }

  /** The account's settings of a PSP, or undefined before the first PUT. */
  get (accountId: number, psp: string): PspSettings['settings'] | undefined {
    return this.deps.store.data.pspSettings[`${accountId}:${psp}`]?.settings
  }

  /** Replaces them whole (a PUT). */
  put (account: Account, psp: string, settings: Record<string, unknown>): void {
    const record = { key: `${account.id}:${psp}`, accountId: account.id, psp, settings: structuredClone(settings), updatedAt: iso(this.deps.clock.now()) }
    this.deps.store.transact(() => this.deps.store.put('pspSettings', record))
  }

  /** A split configuration of the account, by its id, or undefined. */
  splitConfig (accountId: number, psp: string, id: string): PspSplitConfig | undefined {
    return this.deps.store.data.pspSplitConfigs[`${accountId}:${psp}:${id}`]
  }

  /** A new revision of a split configuration (its first, when the id is new): revisions are kept, never replaced. */
  putSplitConfig (account: Account, psp: string, id: string, config: Record<string, unknown>): PspSplitConfig {
    const key = `${account.id}:${psp}:${id}`
    const revision = { config: structuredClone(config), at: iso(this.deps.clock.now()) }
    return this.deps.store.transact(() => {
      if (this.deps.store.data.pspSplitConfigs[key] === undefined) return this.deps.store.add('pspSplitConfigs', { key, accountId: account.id, psp, id, revisions: [revision] })
      this.deps.store.update('pspSplitConfigs', key, d => { d.revisions.push(revision) })
      return this.deps.store.data.pspSplitConfigs[key]
    })
  }

  /** The link of a charge of the account (by its txid) to a split configuration, or undefined. */
  splitLink (accountId: number, psp: string, txid: string): PspSplitLink | undefined {
    return this.deps.store.data.pspSplitLinks[`${accountId}:${psp}:${txid}`]
  }

  /** Links a charge to a revision of a configuration, replacing any link it had. */
  linkSplit (account: Account, psp: string, txid: string, configId: string, revisao: number): void {
    const record = { key: `${account.id}:${psp}:${txid}`, accountId: account.id, psp, txid, configId, revisao, linkedAt: iso(this.deps.clock.now()) }
    this.deps.store.transact(() => this.deps.store.put('pspSplitLinks', record))
  }

  /** Unlinks a charge; false when it had no link. */
  unlinkSplit (account: Account, psp: string, txid: string): boolean {
    const key = `${account.id}:${psp}:${txid}`
    if (this.deps.store.data.pspSplitLinks[key] === undefined) return false
    this.deps.store.transact(() => this.deps.store.remove('pspSplitLinks', key))
    return true
  }
}

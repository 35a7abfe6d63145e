import type { Ports } from '../ports.js'
import type { Account, PspReport, PspSettings } from '../store/state.js'
import { iso } from './history.js'

/**
 * What a PSP's own API keeps per account: its settings (Efí's `GET`/`PUT /v2/gn/config`, docs/efi.md)
 * and the reports it was asked for (Efí's reconciliation report); the one owner of the `pspSettings`
 * and `pspReports` records. It keeps them as the PSP's API validated them; what they mean is that
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
}

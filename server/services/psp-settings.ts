import type { Ports } from '../ports.js'
import type { Account, PspSettings } from '../store/state.js'
import { iso } from './history.js'

/**
 * The settings a PSP's own API keeps per account (Efí's `GET`/`PUT /v2/gn/config`, docs/efi.md): the
 * one owner of the `pspSettings` records. It keeps them as the PSP's API validated them; what they
 * change elsewhere is that API's to read.
 */
export class PspSettingsService {
  constructor (private readonly deps: Pick<Ports, 'store' | 'clock'>) {}

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

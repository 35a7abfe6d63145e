import type { Sandbox } from '../context.js'

/** Cash-out, cash-out by QR Code and the directory transfer on the ledger. Owned by the pay-outs capability. */
export class PayoutService {
  constructor (private readonly sb: Sandbox) {
    void this.sb
  }
}

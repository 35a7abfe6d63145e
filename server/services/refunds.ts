import type { Sandbox } from '../context.js'

/** Refund-in and devolução of received payments. Owned by the pay-ins capability. */
export class RefundService {
  constructor (private readonly sb: Sandbox) {
    void this.sb
  }
}

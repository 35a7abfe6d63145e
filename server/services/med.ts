import type { Sandbox } from '../context.js'

/** MED disputes (spec 2.10, DESIGN.md section 5). Owned by the pay-ins capability. */
export class MedService {
  constructor (private readonly sb: Sandbox) {
    void this.sb
  }
}

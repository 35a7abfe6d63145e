import type { Sandbox } from '../context.js'
import type { WebhookEvent } from './types.js'

/**
 * Registrations, envelopes, delivery through the scheduler, and the delivery log.
 * (Placeholder until the webhook capability lands: emit records nothing yet.)
 */
export class WebhookService {
  constructor (private readonly sb: Sandbox) {}

  emit (event: WebhookEvent): void {
    void event
    void this.sb
  }
}

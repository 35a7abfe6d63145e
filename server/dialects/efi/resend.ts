import { invalidRequest } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import type { Account, Delivery } from '../../store/state.js'
import { envioOf } from './views.js'
import { PIX_SENT_EVENT } from './notifier.js'

/**
 * Efí's webhook resend (`POST /v2/gn/webhook/reenviar`, docs/efi.md): the last callback of each PIX named,
 * of the kind asked, attempted once more through the delivery log (one attempt, as Efí's resend: no new
 * retries), to the URL it went to.
 */

export const RESEND_KINDS = ['PIX_RECEBIDO', 'PIX_ENVIADO', 'DEVOLUCAO_RECEBIDA', 'DEVOLUCAO_ENVIADA'] as const
export type ResendKind = typeof RESEND_KINDS[number]

/** How long after a PIX its callbacks can be sent again: Efí's 30 days, of sandbox time. */
const WINDOW_MS = 30 * 86_400_000

/** The first item of a callback `{ pix: [...] }`, as the log keeps its body. */
const itemOf = (d: Delivery): { endToEndId?: unknown, devolucoes?: unknown[] } | undefined =>
  (d.body as { pix?: Array<{ endToEndId?: unknown, devolucoes?: unknown[] }> } | null)?.pix?.[0]

export class EfiResend {
  constructor (private readonly sb: Sandbox) {}

  /** Checks every e2eid first (a refusal resends nothing), then starts one attempt of each. */
  resend (account: Account, kind: ResendKind, e2eids: readonly string[]): void {
    const sent = kind === 'PIX_ENVIADO' || kind === 'DEVOLUCAO_RECEBIDA'
    const eventType = sent ? PIX_SENT_EVENT : 'pix'
    // The account's callbacks of that type, newest first: one read of its log for the whole request.
    // (The log's filter names the built-in event types only: Efí's own is filtered here.)
    const log = this.sb.webhooks.deliveries({ accountId: account.id }, 100_000).filter(d => d.eventType === eventType)
    const now = this.sb.clock.now()
    const chosen: Delivery[] = []
    const problems: string[] = []
    for (const e2eid of e2eids) {
      const tx = this.sb.store.transactionByEndToEndId(e2eid)
      const own = tx !== undefined && tx.accountId === account.id && (sent ? envioOf(tx) !== undefined : tx.direction === 'IN')
      if (!own) {
        problems.push(`O e2eid ${e2eid} não é de um Pix ${sent ? 'enviado' : 'recebido'} desta conta`)
        continue
      }
      if (now - Date.parse(tx.createdAt) > WINDOW_MS) {
        problems.push(`O e2eid ${e2eid} é de um Pix de mais de 30 dias: seu webhook não pode ser reenviado`)
        continue
      }
      const returns = kind === 'DEVOLUCAO_RECEBIDA' || kind === 'DEVOLUCAO_ENVIADA'
      const found = log.find(d => d.url !== null && (sent ? itemOf(d)?.endToEndId === e2eid : d.transactionId === tx.id) &&
        (returns ? (itemOf(d)?.devolucoes?.length ?? 0) > 0 : !sent || itemOf(d)?.devolucoes === undefined))
      if (found === undefined) problems.push(`Nenhum webhook ${kind} foi enviado para o e2eid ${e2eid}`)
      else chosen.push(found)
    }
    if (problems.length > 0) throw invalidRequest(problems)
    for (const d of chosen) this.sb.webhooks.redeliver(d.id)
  }
}

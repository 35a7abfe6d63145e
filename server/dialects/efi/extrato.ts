import { saoPauloTime } from '../../domain/calendar.js'
import { centsToString } from '../../domain/money.js'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import { receivedOf } from '../../services/charge-records.js'
import type { Account, PspReport, Transaction } from '../../store/state.js'
import { REPORT_TYPES, type ReportRequestBodyType } from './schemas.js'
import { envioOf, settledAt } from './views.js'

/**
 * Efí's reconciliation report (`/v2/gn/relatorios`, docs/efi.md): asked for a past São Paulo day, it
 * is being made for 30 s of sandbox time (waiting 10 s, then processing), then a CSV of layout v4.0
 * made from the account's records of that day.
 */

const PSP = 'efi'
const WAITING_MS = 10_000
const DONE_MS = 30_000
type Code = typeof REPORT_TYPES[keyof typeof REPORT_TYPES]
/** The records in the order of Efí's layout, between its header (CA) and trailer (T). */
const ORDER: readonly Code[] = ['SD0', 'SD1', 'PR', 'PEC', 'PEB', 'PDE', 'PDR', 'EPE', 'TPR', 'TPE', 'ETPR', 'ETPE', 'TFR', 'TFE', 'TTFE', 'ETFE', 'ETTFE']

const b64 = (s: string | undefined): string => s === undefined ? '' : Buffer.from(s, 'utf8').toString('base64')
const dayOf = (at: string): string => saoPauloTime(Date.parse(at)).day

export class EfiExtrato {
  constructor (private readonly sb: Sandbox) {}

  private statusOf (r: PspReport): 'AGUARDANDO_PROCESSAMENTO' | 'EM_PROCESSAMENTO' | 'CONCLUIDO' {
    const elapsed = this.sb.clock.now() - Date.parse(r.requestedAt)
    return elapsed < WAITING_MS ? 'AGUARDANDO_PROCESSAMENTO' : elapsed < DONE_MS ? 'EM_PROCESSAMENTO' : 'CONCLUIDO'
  }

  view (r: PspReport) {
    return { id: r.id, dataSolicitacao: r.requestedAt, status: this.statusOf(r) }
  }

  /** POST /v2/gn/relatorios/extrato-conciliacao. */
  request (account: Account, body: ReportRequestBodyType) {
    const today = saoPauloTime(this.sb.clock.now()).day
    if (body.dataMovimento >= today) throw invalidRequest(['A data do extrato de conciliação deve ser anterior à data corrente'])
    const types = Object.entries(body.tipoRegistros).filter(([, on]) => on === true).map(([k]) => REPORT_TYPES[k as keyof typeof REPORT_TYPES])
    if (types.length === 0) throw invalidRequest(['Informe ao menos um tipo de registro em tipoRegistros'])
    return this.view(this.sb.pspSettings.requestReport(account, PSP, body.dataMovimento, types))
  }

  /** GET /v2/gn/relatorios/:id: the CSV once made, else where it stands. */
  read (account: Account, id: string): { csv: string } | { pending: ReturnType<EfiExtrato['view']> } {
    const r = this.sb.pspSettings.report(account, id)
    if (r === undefined) throw new Refusal('NOT_FOUND', 'Recurso não encontrado ou não pertence à conta autenticada')
    return this.statusOf(r) === 'CONCLUIDO' ? { csv: this.csv(account, r) } : { pending: this.view(r) }
  }

  private csv (account: Account, r: PspReport): string {
    const asked = new Set(r.types)
    const rows = new Map<Code, string[][]>(ORDER.map(c => [c, []]))
    const add = (code: Code, fields: Array<string | number>) => { if (asked.has(code)) rows.get(code)!.push([code, ...fields.map(String)]) }
    const txs = [...this.sb.store.transactionsOf(account.id)].sort((a, b) => a.seq - b.seq)
    for (const tx of txs) this.recordsOf(tx, r.day, add)
    const institution = this.sb.fixtures.institution
    const lines = [['CA', institution.name, institution.bankCode, '1', String(account.id), account.name, dayOf(r.requestedAt), r.day, 'Extrato de Conciliação API Pix', '1.0']]
    for (const code of ORDER) lines.push(...rows.get(code)!)
    const count = (...codes: Code[]) => codes.reduce((n, c) => n + rows.get(c)!.length, 0)
    const total = ORDER.filter(c => c !== 'SD0' && c !== 'SD1').reduce((n, c) => n + rows.get(c)!.length, 0)
    lines.push(['T', total, count('PR'), count('PEC', 'PEB'), count('PDE', 'PDR'), count('EPE'), count('TPR', 'TPE'), count('ETPR', 'ETPE'), count('TFR'), count('TFE'), count('TTFE'), count('ETFE'), count('ETTFE')].map(String))
    return lines.map(l => l.join(';')).join('\n') + '\n'
  }

  /** The report's records of one transaction of the account, on the day. */
  private recordsOf (tx: Transaction, day: string, add: (code: Code, fields: Array<string | number>) => void): void {
    const received = receivedOf(tx)
    if (received !== undefined) {
      if (dayOf(received.at) === day) {
        const txid = (tx.kind === 'COB' || tx.kind === 'COBV') && tx.data.txid !== null ? tx.data.txid : ''
        add('PR', [tx.seq, received.endToEndId, txid, centsToString(received.amountCents), received.payer.document, '', '', received.at])
      }
      return
    }
    if (tx.kind === 'REFUND_RECEIVED') {
      const original = this.sb.store.transaction(tx.data.originalId)
      if (dayOf(tx.createdAt) === day) add('PDR', [tx.seq, original?.endToEndId ?? '', tx.endToEndId ?? '', centsToString(tx.amountCents), tx.createdAt])
      return
    }
    const envio = envioOf(tx)
    const at = envio === undefined ? undefined : settledAt(envio)
    if (envio === undefined || at === undefined || dayOf(at) !== day) return
    const c = envio.counterpart
    if (envio.kind === 'CASH_OUT' && envio.data.keyType === 'ACCOUNT') {
      add('PEB', [envio.seq, envio.endToEndId ?? '', envio.externalId ?? '', centsToString(envio.amountCents), c?.name ?? '', c?.document ?? '', c?.ispb ?? '', c?.accountBranch ?? '', c?.accountNumber ?? '', envio.data.accountType ?? 'cacc', b64(envio.description), 'API', at])
    } else {
      add('PEC', [envio.seq, envio.endToEndId ?? '', envio.externalId ?? '', centsToString(envio.amountCents), envio.pixKey ?? '', b64(envio.description), 'API', at])
    }
    if (envio.feeCents > 0) add('TPE', [envio.seq, envio.endToEndId ?? '', centsToString(envio.feeCents), at])
  }
}

import type { SandboxRecurrence, SandboxRecurrenceSummary, SandboxRecurrenceWithCharges } from '../../client/index.js'
import { amount, meant, positiveInteger, UsageError, type Command } from '../command.js'

const ACTIONS = ['list', 'show', 'approve', 'reject', 'expire', 'cancel', 'static-code']
const CODES = ['AP13', 'AP14']

/** What a recurrence's `valor` allows: a fixed value, a receiver's minimum, or any value. */
function valueRule (valor: unknown): string {
  const v = (valor ?? {}) as { valorRec?: string, valorMinimoRecebedor?: string }
  if (v.valorRec !== undefined) return `fixed ${v.valorRec}`
  if (v.valorMinimoRecebedor !== undefined) return `at least ${v.valorMinimoRecebedor}`
  return 'any value'
}

function debtorOf (vinculo: unknown): string {
  const d = ((vinculo ?? {}) as { devedor?: { nome?: string, cpf?: string, cnpj?: string } }).devedor ?? {}
  return `${d.nome ?? ''} (${d.cpf ?? d.cnpj ?? ''})`
}

/** One line per recurrence: idRec, status, periodicity, value rule, debtor, account. */
function recLine (rec: SandboxRecurrence): string {
  const periodicidade = ((rec.calendario ?? {}) as { periodicidade?: string }).periodicidade ?? ''
  return `${rec.idRec}  ${rec.status}  ${periodicidade}  ${valueRule(rec.valor)}  debtor ${debtorOf(rec.vinculo)}  account ${rec.accountId}`
}

/** Under a listed recurrence, its recurring charges counted, when it has any. */
function countLines (rec: SandboxRecurrenceSummary): string[] {
  const { total, byStatus } = rec.charges
  if (total === 0) return []
  const counted = Object.entries(byStatus).map(([status, n]) => `${n} ${status}`).join(', ')
  return [`  ${total} cobr: ${counted}`]
}

/** Under its recurrence, each recurring charge and its attempts. */
function chargeLines (rec: SandboxRecurrenceWithCharges): string[] {
  return rec.cobsr.map(c => {
    const attempts = (c.tentativas ?? []).map(a => `${a.tipo} ${a.dataLiquidacao} ${a.status}`).join(', ')
    return `  cobr ${c.txid}  due ${c.calendario.dataDeVencimento}  ${c.status}${attempts === '' ? '' : `  attempts: ${attempts}`}`
  })
}

/**
 * `rec list [--account N] [--limit N] [--cursor C]`, `rec show <idRec>`, `rec approve|reject|expire|cancel <idRec>`
 * and `rec static-code <idRec>`: the payer's side of Pix Automático on the control plane
 * (docs/api-pix.md, "The payer's side").
 */
export const rec: Command = {
  name: 'rec',
  summary: 'list Pix Automático\'s recurrences, show one with its recurring charges, or act as their payer: approve, reject, expire, cancel; print a contract\'s static code',
  usage: ['rec list [--account N] [--limit N] [--cursor C]', 'rec show <idRec>', 'rec approve <idRec>', 'rec reject <idRec> [--code AP13|AP14]', 'rec expire <idRec>', 'rec cancel <idRec>', 'rec static-code <idRec> [--key KEY] [--amount BRL]'],
  details: [
    'list: the recurrences (of --account N), the last made first, each with its recurring charges (cobr) counted by status; at most --limit (100), and the command for the next page while older ones remain (--cursor).',
    'show: one recurrence with its recurring charges and their attempts.',
    'approve: a CRIADA recurrence APROVADA by its payer (by its confirmation request while one waits).',
    'reject: a CRIADA one REJEITADA by its payer, with --code AP13 (the default) or AP14.',
    'expire: a CRIADA or APROVADA one EXPIRADA now.  cancel: an APROVADA one CANCELADA by its payer (SLDB).',
    'static-code: the static code of its contract (journey 4), to --key (the account\'s document by default), of --amount when given; pay it with pix-sandbox pay.',
    'Example:',
    '  pix-sandbox rec approve RR1234567820260310abcdefghijk',
  ],
  options: { account: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' }, code: { type: 'string' }, key: { type: 'string' }, amount: { type: 'string' } },
  async run (ctx, positionals, values) {
    const [action, idRec, ...extra] = positionals
    const api = ctx.sandbox.sandbox
    if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}"`, this)
    if (action === undefined) throw new UsageError('rec needs an action: list, show, approve, reject, expire, cancel or static-code', this)
    if (!ACTIONS.includes(action)) throw new UsageError(`unknown rec action "${action}"${meant(action, ACTIONS) || ': list, show, approve, reject, expire, cancel or static-code'}`, this)
    if (values.code !== undefined && action !== 'reject') throw new UsageError('--code is for rec reject', this)
    if ((values.key !== undefined || values.amount !== undefined) && action !== 'static-code') throw new UsageError('--key and --amount are for rec static-code', this)
    if ((values.limit !== undefined || values.cursor !== undefined) && action !== 'list') throw new UsageError('--limit and --cursor are for rec list', this)
    if (action === 'list') {
      if (idRec !== undefined) throw new UsageError(`unexpected "${idRec}"`, this)
      const accountId = values.account === undefined ? undefined : positiveInteger(values.account, '--account', this)
      const limit = values.limit === undefined ? undefined : positiveInteger(values.limit, '--limit', this)
      const cursor = values.cursor === undefined ? undefined : positiveInteger(values.cursor, '--cursor', this)
      const listed = await api.recurrences({ ...(accountId !== undefined ? { accountId } : {}), ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) })
      const next = listed.nextCursor === undefined
        ? []
        : [`older ones: pix-sandbox rec list${accountId !== undefined ? ` --account ${accountId}` : ''}${limit !== undefined ? ` --limit ${limit}` : ''} --cursor ${listed.nextCursor}`]
      ctx.print(listed, () => listed.recurrences.length === 0
        ? [cursor === undefined ? 'no recurrence yet: POST /v2/rec creates one' : 'no recurrence before this cursor']
        : [...listed.recurrences.flatMap(r => [recLine(r), ...countLines(r)]), ...next])
      return
    }
    if (values.account !== undefined) throw new UsageError('--account is for rec list', this)
    if (idRec === undefined) throw new UsageError(`rec ${action} needs the recurrence's idRec`, this)
    if (!/^[A-Za-z0-9]{1,64}$/.test(idRec)) throw new UsageError(`"${idRec}" is not an idRec such as RR1234567820260310abcdefghijk`, this)
    if (action === 'show') {
      const shown = await api.recurrence(idRec)
      ctx.print(shown, () => [recLine(shown), ...chargeLines(shown)])
      return
    }
    if (action === 'static-code') {
      const key = values.key
      if (key !== undefined && typeof key !== 'string') throw new UsageError('--key needs a key', this)
      const valor = values.amount === undefined ? undefined : amount(values.amount, '--amount', this).toFixed(2)
      const code = await api.recurrenceStaticCode(idRec, { ...(key !== undefined ? { chave: key } : {}), ...(valor !== undefined ? { valor } : {}) })
      ctx.print(code, () => [code.pixCopiaECola])
      return
    }
    let done: SandboxRecurrence
    switch (action) {
      case 'approve': done = await api.approveRecurrence(idRec); break
      case 'reject': {
        const code = values.code
        if (code !== undefined && (typeof code !== 'string' || !CODES.includes(code))) throw new UsageError(`--code needs AP13 or AP14, not "${String(code)}"`, this)
        done = await api.rejectRecurrence(idRec, code === undefined ? {} : { codigo: code as 'AP13' | 'AP14' })
        break
      }
      case 'expire': done = await api.expireRecurrence(idRec); break
      default: done = await api.cancelRecurrence(idRec)
    }
    ctx.print(done, () => [recLine(done)])
  },
}

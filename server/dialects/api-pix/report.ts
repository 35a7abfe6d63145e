import { saoPauloTime } from '../../domain/calendar.js'
import { cobrAfterAttempt, type TentativaResultado } from '../../domain/cobr.js'
import type { RecStatus } from '../../domain/rec.js'
import { recNextDueDate } from '../../domain/rec-schedule.js'
import type { CobR, Recurrence } from '../../store/state.js'
import {
  evidence, failed, notExercised, operation, operationOf, outcome, passed, plural, unknownOutcome, validity, type CheckDefinition, type CheckResult, type Evidence,
} from '../../report/checks.js'
import { COB_CREATIONS, COBR_CREATIONS, COBR_RETRY, type IntegrationFacts, type RequestFact } from '../../report/facts.js'

/**
 * The API Pix's own checks of the integration report (server/report/checks.ts): pure functions of an
 * account's facts, graded only for an integration that used the API Pix (docs/api-pix.md).
 */
// ---- API Pix (docs/api-pix.md) ----------------------------------------------------------------------

/** API Pix's refusals of a request for its own data: invalid input (problem details with `violacoes`), a token asked wrongly. */
const API_PIX_INVALID: ReadonlySet<string> = new Set(['HTTP_ERROR', 'INVALID_SCOPE', 'UNSUPPORTED_GRANT_TYPE'])

const apiPixRequestsValid: CheckDefinition = {
  id: 'api-pix-requests-valid',
  title: 'Requests pass API Pix\'s validation',
  section: 'api-pix Errors',
  page: 'api-pix.md',
  anchor: '#errors',
  dialects: ['api-pix'],
  passes: 'no request to API Pix was refused 400 for its own data: no problem details listing violacoes, no token refused invalid_request, invalid_scope or unsupported_grant_type',
  fails: 'a request was refused 400 for a field off its format or rules (the evidence lists each operation with the violacoes it got, propriedade and razao)',
  exercise: 'make requests to API Pix (under its base path, /v2 by default)',
  evaluate (f) {
    return validity(f, 'api-pix', 'API Pix', API_PIX_INVALID, this.exercise, r => `${operationOf(r)} refused ${r.violations.length > 0 ? r.violations.join('; ') : r.errorCode}`)
  },
}

const scopeRefusalNotRetried: CheckDefinition = {
  id: 'scope-refusal-not-retried',
  title: 'A request refused for a scope its token lacks is not sent again with the same token',
  section: 'api-pix Scopes',
  page: 'api-pix.md',
  anchor: '#scopes',
  dialects: ['api-pix'],
  passes: 'no operation answered 403 AcessoNegado (its token lacks the scope the operation needs) was sent again with that same token',
  fails: 'the same operation was sent again with the token it was refused for, and refused again (the evidence lists both requests)',
  exercise: 'call an operation with a token without its scope: POST /oauth/token with scope=cob.read, then PUT /cob/{txid} of API Pix; or an account created with "scopes" that leave one out',
  evaluate (f) {
    const denied = f.requests.filter(r => r.family === 'api-pix' && r.status === 403 && r.errorCode === 'ACCESS_DENIED')
    if (denied.length === 0) return notExercised(`no request was refused for a scope; to exercise it, ${this.exercise}`)
    const sameAgain = (e: RequestFact, r: RequestFact): boolean => e.tokenId !== null && e.tokenId === r.tokenId && operation(e) === operation(r)
    const repeats = denied.filter((r, i) => denied.slice(0, i).some(e => sameAgain(e, r)))
    if (repeats.length > 0) {
      return failed(`${plural(repeats.length, 'request')} sent again with the token that lacked the scope`, repeats.map(r => {
        const first = denied.find(e => sameAgain(e, r))!
        return evidence(`${operationOf(r)} refused AcessoNegado twice with the same token`, { requestIds: [first.id, r.id] })
      }))
    }
    return passed(`${plural(denied.length, 'request')} refused for a scope, none sent again with the same token`)
  },
}

/** The list that shows a charge a creation made: GET /cob for a cob, GET /cobv for a cobv. */
const listOf = (r: RequestFact): string => `GET /${r.route.split('/')[1]}`

const cobCreationResolved: CheckDefinition = {
  id: 'cob-creation-resolved',
  title: 'A cob or cobv creation that got no answer is resolved by its txid, never by creating the charge again',
  section: 'api-pix cob',
  page: 'api-pix.md',
  anchor: '#cob',
  dialects: ['api-pix'],
  passes: 'after each cob or cobv creation (PUT /cob/{txid}, POST /cob, PUT /cobv/{txid}) that got no answer or a 500, the integration read it (GET /cob/{txid}, GET /cob, GET /cobv/{txid}, GET /cobv) or sent the same PUT again (whose "txid in use" or revision says it was made) before it created the same charge under another txid, if it did',
  fails: 'the same charge (the same body) was created under another txid (POST /cob again, or PUT with a new txid) before the integration found out what the first creation did: two charges for one sale',
  exercise: 'have a cob or cobv creation lose its answer after it was made: PUT /cob/{txid} or PUT /cobv/{txid} of API Pix with X-Sandbox-Scenario: CONNECTION_RESET;after=commit',
  evaluate (f) {
    const isCreation = (r: RequestFact): boolean => r.family === 'api-pix' && COB_CREATIONS.has(operation(r))
    const lost = f.requests.filter(r => isCreation(r) && unknownOutcome(r))
    if (lost.length === 0) return notExercised(`no cob or cobv creation went without an answer; to exercise it, ${this.exercise}`)
    const problems: Evidence[] = []
    for (const r of lost) {
      const after = f.requests.slice(f.requests.indexOf(r) + 1).filter(x => x.family === 'api-pix')
      const sameTxid = (x: RequestFact): boolean => r.method === 'PUT' && x.externalId === r.externalId && (operation(x) === `GET ${r.route}` || operation(x) === operation(r))
      // What came first: finding out (a read, the same PUT again), or the same charge under another txid.
      const next = after.find(x => operation(x) === listOf(r) || sameTxid(x) || (isCreation(x) && x.sent !== null && x.sent === r.sent))
      if (next !== undefined && isCreation(next) && !sameTxid(next)) {
        problems.push(evidence(`${operationOf(r)} ${outcome(r)}; the same charge was then created again by ${operation(next)}${next.externalId ? ` with txid ${next.externalId}` : ''}`, { requestIds: [r.id, next.id] }))
      }
    }
    if (problems.length > 0) return failed(`${plural(problems.length, 'charge creation')} of ${lost.length} without an answer created again under another txid`, problems)
    return passed(`${plural(lost.length, 'charge creation')} without an answer, none created again under another txid`)
  },
}

const listsReadToTheEnd: CheckDefinition = {
  id: 'lists-paged-through',
  title: 'A list of API Pix is read page by page to its end',
  section: 'api-pix cob',
  page: 'api-pix.md',
  anchor: '#cob',
  dialects: ['api-pix'],
  passes: 'each list answer (GET /cob, GET /loc, ...) whose paginacao said more pages followed was followed by a request for a later page of the same list (the same filters), or for one page that held the rest',
  fails: 'a list answered one page of several (paginacao.quantidadeDePaginas) and the integration never asked for the next: what the later pages held was never read',
  exercise: 'list more than one page holds: GET /cob of API Pix with paginacao.itensPorPagina smaller than the number of charges created between inicio and fim',
  evaluate (f) {
    const pages = f.requests.filter(r => r.family === 'api-pix' && r.listPage !== null)
    const more = pages.filter(r => r.listPage!.page < r.listPage!.pages - 1)
    if (more.length === 0) return notExercised(`${plural(pages.length, 'list answer')}, none with more pages to read; to exercise it, ${this.exercise}`)
    const unread = more.filter(r => {
      const { list, page } = r.listPage!
      return !f.requests.slice(f.requests.indexOf(r) + 1).some(x => x.listPage?.list === list && (x.listPage.page > page || x.listPage.page === x.listPage.pages - 1))
    })
    if (unread.length > 0) {
      return failed(`${plural(unread.length, 'list answer')} of ${more.length} with more pages not followed by the next page`,
        unread.map(r => evidence(`${operationOf(r)} answered page ${r.listPage!.page} of ${r.listPage!.pages} (counted from 0), and no later page of that list was asked for`, { requestIds: [r.id] })))
    }
    return passed(`${plural(more.length, 'list answer')} with more pages, each followed by the next`)
  },
}

// ---- Pix Automático (docs/api-pix.md, Pix Automático and Recurring charges) -------------------------

const isoAt = (ms: number): string => new Date(ms).toISOString()
/** When a recurrence reached its (final) status, by its history. */
const endedAt = (rec: Recurrence): number => Date.parse(rec.atualizacao.find(a => a.status === rec.status)?.data ?? rec.createdAt)
const created = (r: RequestFact): boolean => r.status !== null && r.status < 300

/**
 * The recurrences that ended in one of `statuses`, each with the recurring charges the integration
 * asked for after it ended: the sandbox refuses them (the recurrence is no longer APROVADA), so what
 * is graded is having sent them. One the sandbox created came before the end (a frozen clock may give
 * both one instant).
 */
function endedNotCharged (f: IntegrationFacts, statuses: readonly RecStatus[], what: string, exercise: string): CheckResult {
  const ended = f.recurrences.filter(r => statuses.includes(r.status))
  if (ended.length === 0) return notExercised(`no recurrence was ${what}; to exercise it, ${exercise}`)
  const problems: Evidence[] = []
  for (const rec of ended) {
    const since = endedAt(rec)
    const after = f.requests.filter(r => r.family === 'api-pix' && COBR_CREATIONS.has(operation(r)) && r.idRec === rec.idRec && r.at >= since && !created(r))
    if (after.length === 0) continue
    problems.push(evidence(`recurrence ${rec.idRec} ${rec.status} at ${isoAt(since)}; then ${after.map(r => `${operation(r)}${r.externalId ? ` with txid ${r.externalId}` : ''} ${outcome(r)}`).join('; ')}`,
      { requestIds: after.map(r => r.id) }))
  }
  if (problems.length > 0) return failed(`${plural(problems.length, 'recurrence')} of ${ended.length} ${what} charged afterwards`, problems)
  return passed(`${plural(ended.length, 'recurrence')} ${what}, none charged afterwards`)
}

const rejectedNotCharged: CheckDefinition = {
  id: 'rejected-rec-not-charged',
  title: 'A recurrence rejected or cancelled is not charged',
  section: 'api-pix Pix Automático',
  page: 'api-pix.md',
  anchor: '#pix-automático',
  dialects: ['api-pix'],
  passes: 'no recurring charge (PUT /cobr/{txid}, POST /cobr) was asked for a recurrence once it was REJEITADA (by the payer or the payer\'s PSP, directly or through its confirmation request) or CANCELADA (by either side)',
  fails: 'a recurring charge was asked for a recurrence after it was rejected or cancelled, which its webhook (/webhookrec) and GET /rec/{idRec} said from that moment (the evidence names the recurrence and lists the requests)',
  exercise: 'have a recurrence rejected: POST /rec with X-Sandbox-Scenario: REC_PAYER_PSP_REJECTS, POST /solicrec for it and advance the clock 3 seconds (POST /__sandbox/clock/advance { "ms": 3000 }); or POST /__sandbox/recurrences/{idRec}/reject, or .../cancel of an approved one',
  evaluate (f) {
    return endedNotCharged(f, ['REJEITADA', 'CANCELADA'], 'rejected or cancelled', this.exercise)
  },
}

const expiredNotCharged: CheckDefinition = {
  id: 'expired-rec-not-charged',
  title: 'A recurrence whose authorisation expired is not charged',
  section: 'api-pix Pix Automático',
  page: 'api-pix.md',
  anchor: '#pix-automático',
  dialects: ['api-pix'],
  passes: 'no recurring charge (PUT /cobr/{txid}, POST /cobr) was asked for a recurrence once it was EXPIRADA: its confirmation request unanswered by dataExpiracaoSolicitacao, or its dataFinal passed. Whether to ask the payer again (a new recurrence, and its request) is the receiver\'s choice, not graded',
  fails: 'a recurring charge was asked for a recurrence after it expired (the evidence names the recurrence and lists the requests)',
  exercise: 'have a recurrence expire: POST /rec with X-Sandbox-Scenario: REC_PAYER_PSP_SILENT, POST /solicrec for it and advance the clock past its dataExpiracaoSolicitacao; or POST /__sandbox/recurrences/{idRec}/expire',
  evaluate (f) {
    return endedNotCharged(f, ['EXPIRADA'], 'expired', this.exercise)
  },
}

/** A failed attempt after which its charge waited for a retry, until the last day one could be asked for. */
interface RetryWait { cobr: CobR, attempt: number, until: string }

/**
 * The waits for a retry of a charge: after each failed attempt, what the sandbox's rules (domain/cobr.ts,
 * `cobrAfterAttempt`) made of the charge on the day it failed, with the attempts up to it. A code that
 * ends the charge, NAO_PERMITE, 3 retries spent or no day left in the window leave nothing to ask for.
 */
function retryWaits (cobr: CobR, rec: Recurrence | undefined): RetryWait[] {
  const waits: RetryWait[] = []
  cobr.tentativas.forEach((t, i) => {
    const resultado: TentativaResultado | null = t.status === 'EXPIRADA' ? { status: 'EXPIRADA' } : t.status === 'REJEITADA' && t.rejeicao !== undefined ? { status: 'REJEITADA', rejeicao: t.rejeicao } : null
    if (resultado === null) return
    const after = cobrAfterAttempt({
      politicaRetentativa: cobr.politicaRetentativa,
      recStatus: rec === undefined ? null : rec.status,
      cobr: { dataDeVencimento: cobr.calendario.dataDeVencimento, ajusteDiaUtil: cobr.ajusteDiaUtil, status: 'ATIVA', tentativas: cobr.tentativas.slice(0, i + 1) },
      proximoVencimento: rec === undefined ? null : recNextDueDate(rec.terms.calendario, cobr.calendario.dataDeVencimento),
      hoje: saoPauloTime(Date.parse(t.atualizacao[t.atualizacao.length - 1].data)).day,
    }, resultado)
    if (after.status === 'ATIVA') waits.push({ cobr, attempt: i, until: after.retentativaAte })
  })
  return waits
}

const failedAttempts = (f: IntegrationFacts): number => f.cobrs.reduce((n, c) => n + c.tentativas.filter(t => t.status === 'REJEITADA' || t.status === 'EXPIRADA').length, 0)

const retryRequested: CheckDefinition = {
  id: 'cobr-retry-requested',
  title: 'A recurring charge whose debit failed is retried while its recurrence allows',
  section: 'api-pix Recurring charges',
  page: 'api-pix.md',
  anchor: '#recurring-charges',
  dialects: ['api-pix'],
  passes: 'after each failed debit (an attempt EXPIRADA, or REJEITADA with a code that leaves the charge ATIVA) of a charge whose recurrence allows retries (politicaRetentativa PERMITE_3R_7D), while fewer than 3 retries were spent and a day was left in the 7 after the due date (before the next cycle), the integration asked for a retry (POST /cobr/{txid}/retentativa/{data}) before the charge expired',
  fails: 'a charge waited for a retry its recurrence allowed and expired with none asked for: a debit the payer agreed could be retried was given up (the evidence names the charge and the last day a retry could be asked for)',
  exercise: 'have a debit fail on a recurrence with politicaRetentativa PERMITE_3R_7D: PUT /cobr/{txid} with X-Sandbox-Scenario: COBR_INSUFFICIENT_FUNDS, then move the clock to its debit and its evening attempt (POST /__sandbox/clock/next-due, twice) and on past the retry window',
  evaluate (f) {
    const waits = f.cobrs.flatMap(c => retryWaits(c, f.recurrences.find(r => r.idRec === c.idRec)))
    const retried = waits.filter(w => w.cobr.tentativas.length > w.attempt + 1)
    const waiting = waits.filter(w => !retried.includes(w) && w.cobr.status === 'ATIVA')
    // A charge cancelled with its recurrence was not given up by the integration: nothing was left to retry.
    const givenUp = waits.filter(w => !retried.includes(w) && w.cobr.status === 'EXPIRADA')
    const still = waiting.length > 0 ? ` (${plural(waiting.length, 'charge')} still waiting for a retry, until ${waiting.map(w => w.until).join(', ')})` : ''
    if (retried.length + givenUp.length === 0) return notExercised(`no failed debit left a retry to ask for${still}; to exercise it, ${this.exercise}`)
    if (givenUp.length > 0) {
      return failed(`${plural(givenUp.length, 'failed debit')} of ${retried.length + givenUp.length} with a retry left not retried${still}`,
        givenUp.map(w => evidence(`cobr ${w.cobr.txid} (recurrence ${w.cobr.idRec}): attempt ${w.attempt + 1} ${w.cobr.tentativas[w.attempt].status} on ${w.cobr.tentativas[w.attempt].dataLiquidacao}; a retry could be asked for until ${w.until}, none was, and the charge ${w.cobr.status}`, {})))
    }
    return passed(`${plural(retried.length, 'failed debit')} with a retry left, each retried${still}`)
  },
}

const retryAllowed: CheckDefinition = {
  id: 'cobr-retry-allowed',
  title: 'A retry is asked for only when the recurrence\'s policy and window allow one',
  section: 'api-pix Recurring charges',
  page: 'api-pix.md',
  anchor: '#recurring-charges',
  dialects: ['api-pix'],
  passes: 'no retry (POST /cobr/{txid}/retentativa/{data}) was refused 400: none for a recurrence whose politicaRetentativa is NAO_PERMITE, none beyond the 3 of PERMITE_3R_7D, none for a date outside the day after the first attempt to 7 days after the due date (before the next cycle), not in the future or already taken, none while an attempt was pending or once the charge had ended',
  fails: 'a retry was refused 400 CobROperacaoInvalida: the integration asked for one API Pix does not allow (the evidence lists each request with its violacoes)',
  exercise: 'have a debit fail: PUT /cobr/{txid} with X-Sandbox-Scenario: COBR_INSUFFICIENT_FUNDS, then move the clock to its debit and its evening attempt (POST /__sandbox/clock/next-due, twice), and let the integration decide whether to retry',
  evaluate (f) {
    const retries = f.requests.filter(r => r.family === 'api-pix' && operation(r) === COBR_RETRY && r.accountId === f.accountId)
    const debits = failedAttempts(f)
    if (retries.length === 0 && debits === 0) return notExercised(`no debit failed and no retry was asked for; to exercise it, ${this.exercise}`)
    const refused = retries.filter(r => r.status === 400)
    if (refused.length > 0) {
      return failed(`${plural(refused.length, 'retry request')} of ${retries.length} refused`,
        refused.map(r => evidence(`retry of cobr ${r.externalId ?? '?'} refused: ${r.violations.length > 0 ? r.violations.join('; ') : r.errorCode}`, { requestIds: [r.id] })))
    }
    return passed(`${plural(debits, 'failed debit')}, ${plural(retries.length, 'retry request')}, none refused`)
  },
}

/** API Pix's own checks, in the report's order. */
export const apiPixChecks: readonly CheckDefinition[] = [apiPixRequestsValid, scopeRefusalNotRetried, cobCreationResolved, listsReadToTheEnd, rejectedNotCharged, expiredNotCharged, retryRequested, retryAllowed]

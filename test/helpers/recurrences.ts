import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { advance, bearer, buildTestApp, newAccount, NO_MTLS_CHECK } from './app.js'
import { oauthToken } from './api-pix.js'
import type { DebitAnswer } from '../../server/ports.js'

/**
 * The recurring charges' tests (docs/api-pix.md, "Recurring charges") on the sandbox's own
 * recurrences: each created by its receiver (POST /rec), approved by its payer through the control
 * plane, and its payer's answer to a debit set as a payer behaviour (docs/api-pix.md, "The payer's side").
 */

/** The debtor of the tests' recurrence, and of a second one (each debtor's answers are set apart). */
export const DEBTOR = { cpf: '52998224725', nome: 'MARIA PAGADORA' }
export const OTHER_DEBTOR = { cpf: '45164632481', nome: 'FULANO DE TAL' }

/** A CobRSolicitada due on Friday 2026-03-20, ten days after the tests' T0, of the recurrence `idRec`. */
export const cobrBody = (idRec: string, over: Record<string, unknown> = {}) => ({
  idRec,
  infoAdicional: 'Assinatura de março',
  calendario: { dataDeVencimento: '2026-03-20' },
  valor: { original: '49.90' },
  ajusteDiaUtil: true,
  recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
  devedor: { email: 'maria@example.com', cep: '89256-140' },
  ...over,
})

/**
 * An app with an account and an APROVADA recurrence of it (monthly from 2026-03-20 to 2027-03-20,
 * retries allowed), a client of API Pix for it (`call`, with extra headers such as a scenario's), and
 * the payer's side: `recurrence` creates and approves another one, `debits` sets how a debtor's payer
 * answers debits, `cancel` has the receiver cancel a recurrence.
 */
export async function cobrApp (t: Test) {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { name: 'STREAMING LTDA', ...NO_MTLS_CHECK })
  // A token each call: the virtual clock moves days ahead, past a token's lifetime.
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(await oauthToken(app, acc)), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })

  /** A recurrence of the account, created and approved; its idRec. */
  const recurrence = async (over: Record<string, unknown> = {}, approval: Record<string, unknown> = {}): Promise<string> => {
    const terms: Record<string, unknown> = {
      vinculo: { contrato: 'CONTRATO-1', devedor: DEBTOR },
      calendario: { dataInicial: '2026-03-20', dataFinal: '2027-03-20', periodicidade: 'MENSAL' },
      politicaRetentativa: 'PERMITE_3R_7D',
      ...over,
    }
    const created = await call('POST', '/v2/rec', terms)
    if (created.statusCode !== 201) throw new Error(`POST /rec: ${created.statusCode} ${created.body}`)
    const idRec = created.json().idRec as string
    const approved = await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: { pagador: { ispbParticipante: '60701190', cpf: (terms.vinculo as { devedor: { cpf: string } }).devedor.cpf }, ...approval } })
    if (approved.statusCode !== 200) throw new Error(`approve: ${approved.statusCode} ${approved.body}`)
    return idRec
  }

  /** How the payer of the debtor `cpf` answers debits. */
  const debits = async (answer: DebitAnswer, cpf = DEBTOR.cpf): Promise<void> => {
    const res = await app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId: acc.accountId, document: cpf, authorization: 'APPROVE', debit: answer } })
    if (res.statusCode >= 300) throw new Error(`payer behaviour: ${res.statusCode} ${res.body}`)
  }

  /** The receiver cancels the recurrence (PATCH /rec/{idRec}). */
  const cancel = async (idRec: string): Promise<void> => {
    const res = await call('PATCH', `/v2/rec/${idRec}`, { status: 'CANCELADA' })
    if (res.statusCode !== 200) throw new Error(`cancel: ${res.statusCode} ${res.body}`)
  }

  const idRec = await recurrence()
  return { app, acc, call, idRec, body: (over: Record<string, unknown> = {}) => cobrBody(idRec, over), recurrence, debits, cancel }
}

/** Moves the clock to `instant` (after now), running every step due by then. */
export async function advanceTo (app: FastifyInstance, instant: string): Promise<void> {
  await advance(app, Date.parse(instant) - app.sandbox.clock.now())
}

/** The account's deliveries of `/webhookcobr` (eventType cobr) in the order they were made. */
export async function cobrDeliveries (app: FastifyInstance, accountId: number): Promise<Array<{ status: string, url: string, transactionId: string, body: { cobsr: Array<Record<string, any>> } }>> {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=cobr` })
  return (res.json().deliveries as Array<{ seq: number }>).sort((a, b) => a.seq - b.seq) as any
}

import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../route-plugin.js'
import { hundredths } from '../../domain/api-pix-fields.js'
import { JORNADAS, REC_REJEICAO_CODIGOS } from '../../domain/rec-types.js'
import { errorResponses, RecordId, StringEnum } from '../../schemas/common.js'
import { AccountFilterQuery, NumericIdParams } from '../../schemas/sandbox.js'
import { SandboxRecurrenceDetail, SandboxRecurrenceList, SandboxRecurrenceListQuery } from '../../dialects/api-pix/schemas/cobr.js'
import { AUTHORIZATION_ANSWERS, DEBIT_ANSWERS, type PayerBehaviour, type Recurrence } from '../../store/state.js'
import { centsToString } from '../../domain/money.js'
import { invalidRequest } from '../../errors/refusal.js'
import { apiPixViews } from '../../dialects/api-pix/views/index.js'
import { SANDBOX_SHAPE } from './errors.js'

const Valor = Type.String({ pattern: '^\\d{1,10}\\.\\d{2}$', description: 'BRL, as API Pix writes amounts ("50.00")' })
const IdRecParams = Type.Object({ idRec: Type.String({ minLength: 1, maxLength: 64 }) })
const Loose = Type.Object({}, { additionalProperties: true })

const ApproveBody = Type.Object({
  jornada: Type.Optional(StringEnum(JORNADAS, { description: 'JORNADA_1 answers its confirmation request (the default while one waits); else 3 when the receiver named the immediate charge, 2 otherwise' })),
  pagador: Type.Optional(Type.Object({
    ispbParticipante: Type.String({ pattern: '^[0-9A-Z]{8}$' }),
    cpf: Type.Optional(Type.String({ pattern: '^\\d{11}$' })),
    cnpj: Type.Optional(Type.String({ pattern: '^[0-9A-Z]{14}$' })),
  }, { description: 'the payer\'s PSP and document; the debtor\'s document at the request\'s PSP (or 99999999) when absent' })),
  valorMaximo: Type.Optional({ ...Valor, description: 'the payer\'s maximum per charge: at least the recurrence\'s valorMinimoRecebedor' }),
})

const RejectBody = Type.Object({
  codigo: Type.Optional(StringEnum(REC_REJEICAO_CODIGOS, { description: 'AP13 (the default) or AP14' })),
  by: Type.Optional(StringEnum(['USUARIO_PAGADOR', 'PSP_PAGADOR'] as const, { description: 'who rejects: the payer (default) or the payer\'s PSP' })),
})

const StaticCodeBody = Type.Object({
  chave: Type.Optional(Type.String({ minLength: 1, maxLength: 77, description: 'a key the receiving account holds (its document, or a key of the directory with its document and ISPB); its document when absent' })),
  valor: Type.Optional(Valor),
})

const StaticCode = Type.Object({
  jornada: Type.Literal('JORNADA_4'),
  pixCopiaECola: Type.String({ description: 'the static BR Code: tag 26 with the key, tag 54 the amount if given, tag 62-05 the contract when it is 1 to 25 letters and digits (else ***), tag 80 the recurrence\'s location' }),
})

const BehaviourBody = Type.Object({
  accountId: RecordId(),
  document: Type.Optional(Type.String({ pattern: '^(\\d{11}|[0-9A-Z]{14})$', description: 'the debtor\'s CPF or CNPJ; every payer of the account when absent' })),
  authorization: StringEnum(AUTHORIZATION_ANSWERS, { description: 'the answer to a confirmation request once received (journey 1)' }),
  rejectionCode: Type.Optional(StringEnum(REC_REJEICAO_CODIGOS)),
  valorMaximo: Type.Optional(Valor),
  debit: Type.Optional(StringEnum(DEBIT_ANSWERS, { description: 'the answer to a recurring charge\'s debit; PAGA by default' })),
})

const BehaviourView = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  document: Type.Optional(Type.String()),
  authorization: Type.String(),
  rejectionCode: Type.Optional(Type.String()),
  valorMaximo: Type.Optional(Type.String()),
  debit: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

const behaviourView = (b: PayerBehaviour) => {
  const { valorMaximoCents, ...rest } = b
  return { ...rest, ...(valorMaximoCents !== undefined ? { valorMaximo: centsToString(valorMaximoCents) } : {}) }
}

const cents = (valor: string | undefined, field = 'valorMaximo'): number | undefined => {
  if (valor === undefined) return undefined
  const c = hundredths(valor)
  if (c === null || c === 0) throw invalidRequest(`${field} must be a positive amount`, { en: `${field} must be a positive amount` })
  return c
}

/**
 * /__sandbox/recurrences and /__sandbox/payer-behaviours: the payer's side of Pix Automático
 * (docs/api-pix.md, "The payer's side"). A test approves, rejects, cancels or lets expire a recurrence
 * as its payer would; or sets how the simulated payers answer when nobody steers them, per account or
 * per debtor document, so that a year of recurring charges runs unattended.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)
  const view = (rec: Recurrence) => ({ accountId: rec.accountId, ...views.recCompleta(rec) })
  const action = (name: string, summary: string, description: string) => ({
    operationId: `sandboxRecurrence${name}`,
    tags: ['Sandbox'],
    summary,
    description,
    params: IdRecParams,
    response: { 200: Loose, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409]) },
  })

  app.get('/recurrences', {
    schema: {
      operationId: 'sandboxListRecurrences',
      tags: ['Sandbox'],
      summary: 'Pix Automático\'s recurrences, of every account or one, the last made first, a page at a time, each with its recurring charges counted',
      description: 'Each as GET /rec/{idRec} shows it, with its account and charges: how many recurring charges it has, in all and by status (GET /__sandbox/recurrences/{idRec} shows them whole). ' +
        'At most limit (100 by default) per page; while older ones remain, nextCursor is the cursor of the next page (with the same accountId). A page costs the same whatever the number of recurrences and charges.',
      querystring: SandboxRecurrenceListQuery,
      response: { 200: SandboxRecurrenceList },
    },
  }, async (request) => {
    const { accountId, limit, cursor } = request.query
    const { recurrences, nextCursor } = sb.recurrences.page(accountId, limit ?? 100, cursor)
    return {
      recurrences: recurrences.map(rec => ({ ...view(rec), charges: sb.cobrs.summaryOf(rec.accountId, rec.idRec) })),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    }
  })

  app.get('/recurrences/:idRec', {
    schema: {
      operationId: 'sandboxGetRecurrence',
      tags: ['Sandbox'],
      summary: 'One recurrence of any account, with its recurring charges',
      description: 'As GET /rec/{idRec} shows it, with its account, and cobsr: its recurring charges as GET /cobr/{txid} shows them (their attempts in tentativas), oldest first. 404 for an unknown idRec.',
      params: IdRecParams,
      response: { 200: SandboxRecurrenceDetail, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request) => {
    const rec = sb.recurrences.find(request.params.idRec)
    return { ...view(rec), cobsr: sb.cobrs.ofRecurrence(rec.accountId, rec.idRec).map(views.cobr) }
  })

  app.post('/recurrences/:idRec/approve', {
    schema: { ...action('Approve', 'The payer approves a CRIADA recurrence', 'APROVADA, by journey 1 (its confirmation request ACEITA), 2 or 3; with the payer\'s maximum for a value that is not fixed, never below the receiver\'s valorMinimoRecebedor (400 otherwise). 409 unless CRIADA.'), body: ApproveBody },
  }, async (request) => {
    const { jornada, pagador, valorMaximo } = request.body
    const payer = pagador === undefined
      ? undefined
      : pagador.cpf !== undefined
        ? { ispbParticipante: pagador.ispbParticipante, cpf: pagador.cpf }
        : pagador.cnpj !== undefined ? { ispbParticipante: pagador.ispbParticipante, cnpj: pagador.cnpj } : undefined
    if (pagador !== undefined && (payer === undefined || (pagador.cpf !== undefined && pagador.cnpj !== undefined))) {
      throw invalidRequest('pagador needs exactly one of cpf and cnpj', { en: 'pagador needs exactly one of cpf and cnpj' })
    }
    const valorMaximoCents = cents(valorMaximo)
    return view(sb.recurrences.approve(request.params.idRec, { ...(jornada !== undefined ? { jornada } : {}), ...(payer !== undefined ? { pagador: payer } : {}), ...(valorMaximoCents !== undefined ? { valorMaximoCents } : {}) }))
  })

  app.post('/recurrences/:idRec/reject', {
    schema: { ...action('Reject', 'The payer (or the payer\'s PSP) rejects a CRIADA recurrence', 'REJEITADA with rejeicao AP13 or AP14; its confirmation request waiting, REJEITADA too. 409 unless CRIADA.'), body: RejectBody },
  }, async (request) => view(sb.recurrences.reject(request.params.idRec, request.body.codigo, request.body.by)))

  app.post('/recurrences/:idRec/expire', {
    schema: action('Expire', 'Let a recurrence expire now', 'EXPIRADA: a CRIADA one the payer never answered (its confirmation request EXPIRADA too), or an APROVADA one. 409 otherwise.'),
  }, async (request) => view(sb.recurrences.expire(request.params.idRec)))

  app.post('/recurrences/:idRec/cancel', {
    schema: action('Cancel', 'The payer cancels an APROVADA recurrence', 'CANCELADA with cancelamento SLDB by USUARIO_PAGADOR. 409 unless APROVADA.'),
  }, async (request) => view(sb.recurrences.cancelByPayer(request.params.idRec)))

  app.post('/recurrences/:idRec/static-code', {
    schema: {
      operationId: 'sandboxRecurrenceStaticCode',
      tags: ['Sandbox'],
      summary: 'The static code of a recurrence\'s contract (journey 4), as the receiver\'s PSP offers it',
      description: 'A static BR Code to a key of the receiving account carrying the recurrence\'s location (tag 80), of the amount valor when given (else the payer names it). Paid (POST /__sandbox/pix/pay, or a cash-out by QR code), it is a PIX received on the key, and the payer answers the recurrence while CRIADA: APROVADA by JORNADA_4, or REJEITADA. 400 for a key the account does not hold or a bad valor; 404 for an unknown idRec; 409 for a recurrence without a location, or no longer CRIADA or APROVADA.',
      params: IdRecParams,
      body: StaticCodeBody,
      response: { 200: StaticCode, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409]) },
    },
  }, async (request) => {
    const { chave, valor } = request.body
    const amountCents = cents(valor, 'valor')
    return sb.recurrences.staticCode(request.params.idRec, { ...(chave !== undefined ? { chave } : {}), ...(amountCents !== undefined ? { amountCents } : {}) })
  })

  app.put('/payer-behaviours', {
    schema: {
      operationId: 'sandboxSetPayerBehaviour',
      tags: ['Sandbox'],
      summary: 'How simulated payers answer when nobody steers them',
      description: 'Per account (every debtor of its recurrences) or per debtor document, the document first. authorization: APPROVE (the default with nothing set), REJECT or NO_ANSWER (the request expires); debit: PAGA (default), REJEITADA_SALDO, REJEITADA or SEM_RESPOSTA. Replaces what was set for the same account and document.',
      body: BehaviourBody,
      response: { 200: BehaviourView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request) => {
    const { valorMaximo, debit, ...rest } = request.body
    const valorMaximoCents = cents(valorMaximo)
    return behaviourView(sb.payers.set({ ...rest, debit: debit ?? 'PAGA', ...(valorMaximoCents !== undefined ? { valorMaximoCents } : {}) }))
  })

  app.get('/payer-behaviours', {
    schema: { operationId: 'sandboxListPayerBehaviours', tags: ['Sandbox'], summary: 'The simulated payers\' behaviours set', querystring: AccountFilterQuery, response: { 200: Type.Object({ behaviours: Type.Array(BehaviourView) }) } },
  }, async (request) => ({ behaviours: sb.payers.list(request.query.accountId).map(behaviourView) }))

  app.delete('/payer-behaviours/:id', {
    schema: { operationId: 'sandboxDeletePayerBehaviour', tags: ['Sandbox'], summary: 'Forget a behaviour: its payers answer as the account\'s (or the default) again', params: NumericIdParams, response: { 204: Type.Null(), ...errorResponses(SANDBOX_SHAPE, [404]) } },
  }, async (request, reply) => {
    sb.payers.remove(request.params.id)
    return reply.status(204).send(null)
  })
}

export default routes

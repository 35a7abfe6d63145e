import type { FastifyReply } from 'fastify'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { Type } from '@sinclair/typebox'
import { COBV_PAYLOAD_PATH, JWKS_PATH, PAYLOAD_PATH, REC_PAYLOAD_PATH, isLocationToken } from '../../../domain/payload-locations.js'
import { Refusal } from '../../../errors/refusal.js'
import type { PayloadAnswer } from '../../../services/api-pix-cobs.js'
import { errorResponses } from '../../../schemas/common.js'
import { jkuOf } from '../../../services/api-pix-cobs.js'
import { payerScheme } from '../../shared/host.js'
import { apiPixViews } from '../views/index.js'
import { PROBLEM } from '../errors.js'

const PAYLOAD = { problems: { 404: 'CobPayloadNaoEncontrado', 410: 'CobPayloadNaoEncontrado' } } as const
const REC_PAYLOAD = { problems: { 400: 'RecPayloadOperacaoInvalida', 404: 'RecPayloadNaoEncontrado' } } as const
const COBV_PAYLOAD = { problems: { 400: 'CobPayloadOperacaoInvalida', 404: 'CobPayloadNaoEncontrado', 410: 'CobPayloadNaoEncontrado' } } as const

const Token = Type.Object({ token: Type.String({ maxLength: 64, description: 'the last segment of the location' }) })

/** A payload answered: the JWS, or why not (404 for a location serving no charge, 410 for one that will not serve it again). */
function sendPayload (answer: PayloadAnswer, reply: FastifyReply) {
  if (answer.status !== 'served') {
    throw answer.status === 'gone'
      ? new Refusal('PAYLOAD_GONE', 'A cobrança desta location não pode mais ser paga (concluída, removida, expirada ou vencida)')
      : new Refusal('NOT_FOUND', 'A cobrança em questão não foi encontrada para a location requisitada')
  }
  return reply.type('application/jose').header('cache-control', 'no-store').send(answer.jws)
}

/**
 * What a payer's PSP reads (tag CobPayload; docs/api-pix.md, "Payload locations and the key"): at a
 * location, the charge's payload as a JWS (application/jose), open to anyone who has the URL (a cob's at
 * `/qr/v2/<token>`, a cobv's at `/qr/v2/cobv/<token>`, with the amount due on a date); and the
 * key that signs them, as a JWK Set at the location's host. Outside the base path: a location is a URL
 * of its own.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const views = apiPixViews(sb)

  app.get(`${PAYLOAD_PATH}/:token`, {
    config: { apiPix: PAYLOAD },
    schema: {
      operationId: 'apiPixPayload',
      tags: ['API Pix'],
      summary: 'Recuperar o payload JSON que representa a cobrança imediata',
      description: 'The location\'s charge as CobPayload, signed: a compact JWS (ES256) whose header names its key (kid) and the JWK Set that holds it (jku, at the location\'s host). 404 CobPayloadNaoEncontrado for a location that serves no charge; 410 once its charge can no longer be paid (paid, removed or expired).',
      params: Token,
      response: { 200: { description: 'JWS', content: { 'application/jose': { schema: Type.String() } } }, ...errorResponses(PROBLEM, [404, 410]) },
    },
  }, async (request, reply) => {
    const token = request.params.token
    return sendPayload(isLocationToken(token) ? sb.apiPixCobs.payload(token, { scheme: payerScheme(request) }, charge => views.cobPayload(charge, sb.clock.now())) : { status: 'not-found' }, reply)
  })

  app.get(`${COBV_PAYLOAD_PATH}/:token`, {
    config: { apiPix: COBV_PAYLOAD },
    schema: {
      operationId: 'apiPixCobVPayload',
      tags: ['API Pix'],
      summary: 'Recuperar o payload JSON que representa a cobrança com vencimento',
      description: 'The location\'s cobv as CobVPayload, signed as a cob\'s payload is, with valor (original, the abatimento, desconto, multa and juros that apply, and final) for the payment date DPP (YYYY-MM-DD; today in São Paulo when absent). 400 CobPayloadOperacaoInvalida for a codMun that is not 7 digits starting with a state\'s IBGE code, or a DPP before today or after the last payable day; 404 CobPayloadNaoEncontrado for a location that serves no cobv; 410 once it can no longer be paid (paid, removed, or past its last payable day).',
      params: Token,
      querystring: Type.Object({
        codMun: Type.Optional(Type.String({ maxLength: 64, description: 'the payer\'s municipality, IBGE\'s 7-digit code' })),
        DPP: Type.Optional(Type.String({ maxLength: 64, description: 'the payment date the payer means (YYYY-MM-DD); today in São Paulo when absent' })),
      }),
      response: { 200: { description: 'JWS', content: { 'application/jose': { schema: Type.String() } } }, ...errorResponses(PROBLEM, [400, 404, 410]) },
    },
  }, async (request, reply) => {
    const token = request.params.token
    const { codMun, DPP } = request.query
    return sendPayload(isLocationToken(token) ? sb.apiPixCobVs.payload(token, { scheme: payerScheme(request), codMun, DPP }, (charge, amounts) => views.cobvPayload(charge, amounts, sb.clock.now())) : { status: 'not-found' }, reply)
  })

  app.get(`${REC_PAYLOAD_PATH}/:token`, {
    config: { apiPix: REC_PAYLOAD },
    schema: {
      operationId: 'apiPixRecPayload',
      tags: ['API Pix'],
      summary: 'Recuperar o payload JSON que representa a configuração da recorrência',
      description: 'The location\'s recurrence as RecPayload, signed as the charges\' payloads are (ES256, kid and jku in the header). 404 RecPayloadNaoEncontrado for a location that serves no recurrence, or one that can no longer be approved nor is in force (REJEITADA, EXPIRADA, CANCELADA).',
      params: Token,
      response: { 200: { description: 'JWS', content: { 'application/jose': { schema: Type.String() } } }, ...errorResponses(PROBLEM, [404]) },
    },
  }, async (request, reply) => {
    const token = request.params.token
    const answer = isLocationToken(token) ? sb.recurrences.payload(token) : { status: 'not-found' as const }
    if (answer.status !== 'served') throw new Refusal('NOT_FOUND', 'A recorrência em questão não foi encontrada para a location requisitada')
    const jws = sb.signer.sign(views.recPayload(answer.rec), jkuOf(answer.loc, { scheme: payerScheme(request) }))
    return reply.type('application/jose').header('cache-control', 'no-store').send(jws)
  })

  app.get(JWKS_PATH, {
    config: { apiPix: {} },
    schema: {
      operationId: 'apiPixJwks',
      tags: ['API Pix'],
      summary: 'The key that signs payloads (JWK Set)',
      description: 'The public key of the sandbox\'s payload signatures (EC P-256, ES256), by kid; empty until a payload was first signed. Kept in the state: the same after a restart with --data, a new one after a full reset.',
      response: {
        200: Type.Object({
          keys: Type.Array(Type.Object({ kty: Type.String(), crv: Type.String(), x: Type.String(), y: Type.String(), kid: Type.String(), use: Type.String(), alg: Type.String() })),
        }),
      },
    },
  }, async (_request, reply) => reply.type('application/jwk-set+json').send(sb.signer.jwks()))
}

export default routes

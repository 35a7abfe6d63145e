import type { RoutesPlugin } from '../plugin.js'
import { Type } from '@sinclair/typebox'
import { PAYLOAD_PATH, REC_PAYLOAD_PATH, isLocationToken } from '../../domain/payload-locations.js'
import { JWKS_PATH } from '../../errors/families.js'
import { Refusal } from '../../errors/refusal.js'
import { errorResponses } from '../../schemas/common.js'
import { jkuOf } from '../../services/api-pix-cobs.js'
import { payerScheme } from './host.js'

const PAYLOAD = { problems: { 404: 'CobPayloadNaoEncontrado', 410: 'CobPayloadNaoEncontrado' } } as const
const REC_PAYLOAD = { problems: { 400: 'RecPayloadOperacaoInvalida', 404: 'RecPayloadNaoEncontrado' } } as const

/**
 * What a payer's PSP reads (tag CobPayload; docs/api-pix.md, "Payload locations and the key"): at a
 * location, the charge's payload as a JWS (application/jose), open to anyone who has the URL; and the
 * key that signs them, as a JWK Set at the location's host. Outside the base path: a location is a URL
 * of its own.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.get(`${PAYLOAD_PATH}/:token`, {
    config: { apiPix: PAYLOAD },
    schema: {
      operationId: 'apiPixPayload',
      tags: ['API Pix'],
      summary: 'Recuperar o payload JSON que representa a cobrança imediata',
      description: 'The location\'s charge as CobPayload, signed: a compact JWS (ES256) whose header names its key (kid) and the JWK Set that holds it (jku, at the location\'s host). 404 CobPayloadNaoEncontrado for a location that serves no charge; 410 once its charge can no longer be paid (paid, removed or expired).',
      params: Type.Object({ token: Type.String({ maxLength: 64, description: 'the last segment of the location' }) }),
      response: { 200: { description: 'JWS', content: { 'application/jose': { schema: Type.String() } } }, ...errorResponses('api-pix', [404, 410]) },
    },
  }, async (request, reply) => {
    const token = request.params.token
    const answer = isLocationToken(token) ? sb.apiPixCobs.payload(token, { scheme: payerScheme(request) }) : { status: 'not-found' as const }
    if (answer.status !== 'served') {
      throw answer.status === 'gone'
        ? new Refusal('PAYLOAD_GONE', 'A cobrança desta location não pode mais ser paga (concluída, removida ou expirada)')
        : new Refusal('NOT_FOUND', 'A cobrança em questão não foi encontrada para a location requisitada')
    }
    return reply.type('application/jose').header('cache-control', 'no-store').send(answer.jws)
  })

  app.get(`${REC_PAYLOAD_PATH}/:token`, {
    config: { apiPix: REC_PAYLOAD },
    schema: {
      operationId: 'apiPixRecPayload',
      tags: ['API Pix'],
      summary: 'Recuperar o payload JSON que representa a configuração da recorrência',
      description: 'The location\'s recurrence as RecPayload, signed as the charges\' payloads are (ES256, kid and jku in the header). 404 RecPayloadNaoEncontrado for a location that serves no recurrence, or one that can no longer be approved nor is in force (REJEITADA, EXPIRADA, CANCELADA).',
      params: Type.Object({ token: Type.String({ maxLength: 64, description: 'the last segment of the location' }) }),
      response: { 200: { description: 'JWS', content: { 'application/jose': { schema: Type.String() } } }, ...errorResponses('api-pix', [404]) },
    },
  }, async (request, reply) => {
    const token = request.params.token
    const answer = isLocationToken(token) ? sb.recurrences.payload(token) : { status: 'not-found' as const }
    if (answer.status !== 'served') throw new Refusal('NOT_FOUND', 'A recorrência em questão não foi encontrada para a location requisitada')
    const jws = sb.signer.sign(answer.payload, jkuOf(answer.loc, { scheme: payerScheme(request) }))
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

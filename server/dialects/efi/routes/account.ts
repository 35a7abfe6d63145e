import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { AccountConfig, EvpCreated, EvpList, EvpParams, KeyBuckets, Saldo, SaldoQuery } from '../schemas.js'
import { efiConfig, type EfiRoute } from '../errors.js'
import { wantsBlocks, type EfiAccount } from '../account.js'

const route = (scope: EfiRoute['scope']) => efiConfig({ scope })

/** Efí's routes over the account (docs/efi.md, Account and keys): balance, settings, random keys, key bucket. */
export const accountRoutes = (efi: EfiAccount): RoutesPlugin => async (app) => {
  app.get('/gn/saldo', {
    config: route('gn.balance.read'),
    schema: {
      operationId: 'efiGetBalance',
      tags: ['Efí'],
      summary: 'Consultar saldo',
      description: 'saldo: the account\'s available balance; with bloqueios=true also bloqueios { judicial, med, total }: med the amounts of its MED cases still open (the sandbox keeps them in saldo), judicial always 0.00.',
      security: [{ efiOAuth2: ['gn.balance.read'] }],
      querystring: SaldoQuery,
      response: { 200: Saldo },
    },
  }, async (request) => efi.saldo(request.account!, wantsBlocks(request.query.bloqueios)))

  app.get('/gn/config', {
    config: route('gn.settings.read'),
    schema: {
      operationId: 'efiGetConfig',
      tags: ['Efí'],
      summary: 'Listar configurações da conta',
      description: 'The settings last PUT, or { pix: { receberSemChave: true, chaves: {} } } before any.',
      security: [{ efiOAuth2: ['gn.settings.read'] }],
      response: { 200: AccountConfig },
    },
  }, async (request) => efi.config(request.account!))

  app.put('/gn/config', {
    config: route('gn.settings.write'),
    schema: {
      operationId: 'efiPutConfig',
      tags: ['Efí'],
      summary: 'Criar/modificar configurações da conta',
      description: 'Replaces the settings whole (204). Each key of pix.chaves must be the account\'s (400 chave_invalida). Of their effects the sandbox applies envio.webhook.notificacao (tarifa, favorecido) to the callback of a sent PIX; the rest is kept and shown (docs/efi.md).',
      security: [{ efiOAuth2: ['gn.settings.write'] }],
      body: AccountConfig,
      response: { 204: Type.Null() },
    },
  }, async (request, reply) => {
    efi.putConfig(request.account!, request.body)
    return reply.status(204).send(null)
  })

  app.post('/gn/evp', {
    config: route('gn.pix.evp.write'),
    schema: {
      operationId: 'efiCreateEvp',
      tags: ['Efí'],
      summary: 'Criar chave aleatória',
      description: 'No body (an empty form or JSON body is accepted). A random key of the account in the key directory: API Pix\'s webhooks and charges take it as the account\'s. DICT\'s limit: 5 keys for a CPF, 20 for a CNPJ (400 limite_criacao_chave_atingido).',
      security: [{ efiOAuth2: ['gn.pix.evp.write'] }],
      response: { 201: EvpCreated },
    },
  }, async (request, reply) => reply.status(201).send({ chave: efi.createEvp(request.account!) }))

  app.get('/gn/evp', {
    config: route('gn.pix.evp.read'),
    schema: {
      operationId: 'efiListEvp',
      tags: ['Efí'],
      summary: 'Listar chaves aleatórias',
      description: 'The account\'s random keys (only those).',
      security: [{ efiOAuth2: ['gn.pix.evp.read'] }],
      response: { 200: EvpList },
    },
  }, async (request) => ({ chaves: efi.evps(request.account!) }))

  app.delete('/gn/evp/:chave', {
    config: route('gn.pix.evp.write'),
    schema: {
      operationId: 'efiDeleteEvp',
      tags: ['Efí'],
      summary: 'Remover chave aleatória',
      description: '200 with no body: the key leaves the directory, with its API Pix webhook. Any other key: 400 chave_nao_encontrada.',
      security: [{ efiOAuth2: ['gn.pix.evp.write'] }],
      params: EvpParams,
      response: { 200: Type.Unsafe<undefined>({ type: 'null', description: 'removed, no body' }) },
    },
  }, async (request, reply) => {
    efi.deleteEvp(request.account!, request.params.chave)
    return reply.status(200).send()
  })

  app.get('/gn/chaves/balde', {
    config: route('gn.keys.bucket.read'),
    schema: {
      operationId: 'efiKeyBuckets',
      tags: ['Efí'],
      summary: 'Consultar balde de fichas de chaves',
      description: 'DICT\'s token buckets of the account (baldeA: cpf, cnpj, evp; baldeB: telefone, email): capacity 100, 2 tokens every 60 s; the sandbox consumes none, so they are full.',
      security: [{ efiOAuth2: ['gn.keys.bucket.read'] }],
      response: { 200: KeyBuckets },
    },
  }, async () => efi.buckets())
}

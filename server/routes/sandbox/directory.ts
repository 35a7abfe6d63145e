import type { RoutesPlugin } from '../../route-plugin.js'
import { Type } from '@sinclair/typebox'
import { Refusal } from '../../errors/refusal.js'
import { errorResponses } from '../../schemas/common.js'
import { DirectoryEntryBody, DirectoryEntryView, DirectoryKeyParams, DirectoryList } from '../../schemas/payouts.js'
import { SANDBOX_SHAPE } from './errors.js'

/**
 * /__sandbox/directory: the key directory behind POST /dict/pix and the settlement of cash-outs
 * (who holds a key, at which institution, whether that account is blocked or closed).
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.get('/directory', {
    schema: { operationId: 'sandboxListDirectory', tags: ['Sandbox'], summary: 'Every key of the directory', response: { 200: DirectoryList } },
  }, async () => ({ entries: sb.directory.entries() }))

  app.get('/directory/:key', {
    schema: { operationId: 'sandboxGetDirectoryEntry', tags: ['Sandbox'], summary: 'One key of the directory', params: DirectoryKeyParams, response: { 200: DirectoryEntryView, ...errorResponses(SANDBOX_SHAPE, [404]) } },
  }, async (request) => {
    const entry = sb.directory.entry(request.params.key)
    if (!entry) throw new Refusal('KEY_NOT_FOUND', `Key ${request.params.key} is not in the directory`)
    return entry
  })

  app.put('/directory/:key', {
    schema: {
      operationId: 'sandboxPutDirectoryEntry',
      tags: ['Sandbox'],
      summary: 'Add or replace a key (201 when added, 200 when replaced)',
      description: 'The key must have the format of keyType (detected when absent); it is stored in canonical form (+55 phone, lower-case e-mail and EVP).',
      params: DirectoryKeyParams,
      body: DirectoryEntryBody,
      response: { 200: DirectoryEntryView, 201: DirectoryEntryView, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request, reply) => {
    const { entry, created } = sb.directory.put(request.params.key, request.body)
    return reply.status(created ? 201 : 200).send(entry)
  })

  app.delete('/directory/:key', {
    schema: { operationId: 'sandboxDeleteDirectoryEntry', tags: ['Sandbox'], summary: 'Remove a key', params: DirectoryKeyParams, response: { 204: Type.Null(), ...errorResponses(SANDBOX_SHAPE, [404]) } },
  }, async (request, reply) => {
    if (!sb.directory.remove(request.params.key)) throw new Refusal('KEY_NOT_FOUND', `Key ${request.params.key} is not in the directory`)
    return reply.status(204).send(null)
  })
}

export default routes

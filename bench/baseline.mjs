// The benchmark's baseline: a bare Fastify 5 app that validates the same cash-out body with TypeBox
// and answers 201. Every sandbox figure is reported as a ratio against it, measured in the same run.
import Fastify from 'fastify'
import { Type } from '@sinclair/typebox'

const CashOut = Type.Object({
  value: Type.Number({ minimum: 0.01 }),
  externalId: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.String({ maxLength: 140 })),
  details: Type.Object({
    key: Type.String({ minLength: 1, maxLength: 77 }),
    keyType: Type.Unsafe({ type: 'string', enum: ['DOCUMENT', 'EMAIL', 'PHONE', 'RANDOM'] }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    document: Type.String({ pattern: '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$' }),
  }),
})

const app = Fastify({ logger: false })
app.get('/health', async () => ({ status: 'ok' }))
app.post('/api/pix/cash-out', { schema: { body: CashOut } }, async (request, reply) =>
  reply.status(201).send({ transactionId: 'b1f1c1d1-0000-4000-8000-000000000000', externalId: request.body.externalId, status: 'PENDING', generateTime: new Date().toISOString() }))
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })

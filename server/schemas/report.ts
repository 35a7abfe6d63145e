import { Type } from '@sinclair/typebox'
import { RecordId, StringEnum } from './common.js'
import { DeliveryEventTypeSchema } from './webhooks.js'

/** The integration report of the control plane (`/__sandbox/report`): a PSP's homologation, automated. */
export const ReportQuery = Type.Object({ accountId: RecordId({ description: 'The account whose integration is graded' }) })

const CheckStatusSchema = StringEnum(['passed', 'failed', 'not_exercised', 'not_applicable'] as const, {
  description: 'passed: the integration met the check; failed: it did not (see evidence); not_exercised: it never did what the check grades; not_applicable: not exercised, and the integration made no request to the APIs the check grades (dialects)',
})

const Evidence = Type.Object({
  note: Type.String(),
  requestIds: Type.Array(Type.String(), { description: 'x-request-id of the requests involved' }),
  deliveryIds: Type.Array(Type.String(), { description: 'ids of the webhook deliveries involved (GET /__sandbox/webhooks/deliveries/{id})' }),
  transactionIds: Type.Array(Type.String(), { description: 'ids of the transactions involved (GET /__sandbox/transactions/{id})' }),
})

export const ReportView = Type.Object({
  accountId: Type.Integer(),
  generatedAt: Type.String({ format: 'date-time', description: 'Sandbox time' }),
  verdict: StringEnum(['passed', 'failed', 'incomplete'] as const, { description: 'failed: a check failed; incomplete: none failed, some were not exercised (or none applied); passed: every check that applies passed' }),
  counts: Type.Object({ passed: Type.Integer(), failed: Type.Integer(), not_exercised: Type.Integer(), not_applicable: Type.Integer() }),
  checks: Type.Array(Type.Object({
    id: Type.String(),
    title: Type.String(),
    section: Type.String({ description: 'The section of docs/gateway.md or docs/api-pix.md the check comes from' }),
    docs: Type.String({ description: 'The page (docs/gateway.md, docs/api-pix.md) and the section\'s anchor' }),
    dialects: Type.Array(Type.String(), { description: 'The APIs whose use the check grades, by the name of their dialect (gateway: the gateway\'s families; api-pix: BACEN\'s API Pix)' }),
    status: CheckStatusSchema,
    summary: Type.String(),
    evidence: Type.Array(Evidence),
  })),
  read: Type.Object({ requests: Type.Integer(), deliveries: Type.Integer(), transactions: Type.Integer() }, { description: 'How many records the report graded' }),
})

export const ReportProbeBody = Type.Object({
  accountId: RecordId(),
  eventType: Type.Optional(DeliveryEventTypeSchema),
})

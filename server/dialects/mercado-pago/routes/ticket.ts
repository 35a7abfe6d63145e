import { Type } from '@sinclair/typebox'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { centsToString } from '../../../domain/money.js'
import { chargeData } from '../../../services/charge-records.js'
import { errorResponses } from '../../../schemas/common.js'
import { MERCADO_PAGO_SHAPE, paymentNotFound } from '../errors.js'
import { paymentViews } from '../context.js'
import { paymentOf, TXID_PREFIX } from '../views.js'

/**
 * A payment's ticket page (its `ticket_url`): the QR code, the copy-and-paste code, amount, expiry and
 * status, and a button that pays it through the control plane (POST /__sandbox/pix/pay). Served
 * without a token, to whoever has its hash, as production's.
 */
const escape = (s: string): string => s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  app.get('/mercadopago/payments/:id/ticket', {
    schema: {
      operationId: 'mercadoPagoTicket',
      tags: ['Mercado Pago'],
      summary: 'A payment\'s ticket page (HTML)',
      params: Type.Object({ id: Type.String({ maxLength: 40 }) }),
      querystring: Type.Object({ hash: Type.Optional(Type.String({ maxLength: 100 })), caller_id: Type.Optional(Type.String({ maxLength: 40 })) }),
      response: { 200: Type.String({ description: 'text/html' }), ...errorResponses(MERCADO_PAGO_SHAPE, [404]) },
    },
  }, async (request, reply) => {
    const tx = /^\d{1,15}$/.test(request.params.id) ? sb.store.transactionByRef(`txid:${TXID_PREFIX}${request.params.id}`) : undefined
    const mp = tx === undefined ? undefined : paymentOf(tx)
    if (tx === undefined || mp === undefined || request.query.hash !== mp.ticketHash) throw paymentNotFound()
    const account = sb.store.account(tx.accountId)!
    const [view] = await paymentViews(sb, request, account, [tx], t => sb.refunds.refundsOf(t))
    const code = chargeData(tx).pixCode ?? ''
    const html = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Pix ${escape(String(mp.paymentId))}</title></head>
<body>
<h1>Pague com Pix</h1>
<p>Valor: R$ ${escape(centsToString(tx.amountCents))}</p>
<p>Status: <span id="status">${escape(view.status)}</span> (${escape(view.status_detail)})</p>
<p>Vence em: ${escape(view.date_of_expiration)}</p>
<img alt="QR code" src="data:image/png;base64,${view.point_of_interaction.transaction_data.qr_code_base64}">
<p><textarea id="code" readonly rows="4" cols="60">${escape(code)}</textarea></p>
<button id="pay" type="button">Pay with the sandbox (POST /__sandbox/pix/pay)</button>
<pre id="result"></pre>
<script>
document.getElementById('pay').addEventListener('click', async () => {
  const r = await fetch('/__sandbox/pix/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pixCode: document.getElementById('code').value }) })
  document.getElementById('result').textContent = r.status + ' ' + await r.text()
})
</script>
</body></html>`
    return reply.type('text/html; charset=utf-8').send(html)
  })
}

export default routes

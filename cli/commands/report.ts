import { EXIT, positiveInteger, type Command } from '../command.js'

const MARK: Record<string, string> = { passed: 'PASS', failed: 'FAIL', not_exercised: '----', not_applicable: 'n/a ' }

/**
 * `report --account N`: the integration report of an account, one line per check, and an exit code a
 * CI job can gate on: 0 when no check failed, 4 when one did (docs/cli.md).
 */
export const report: Command = {
  name: 'report',
  summary: 'grade an account\'s integration: each homologation check passed, failed, not exercised or not applicable',
  usage: ['report --account N'],
  details: [
    'Exit code 4 when a check failed (0 when every exercised check passed), so a CI job can gate on it:',
    '  pix-sandbox report --account 1 || echo "the integration is not ready"',
  ],
  options: { account: { type: 'string' } },
  async run (ctx, _positionals, values) {
    const accountId = positiveInteger(values.account, '--account', this)
    const graded = await ctx.sandbox.sandbox.report(accountId)
    ctx.print(graded, () => [
      `account ${graded.accountId}: ${graded.verdict} (${graded.counts.passed} passed, ${graded.counts.failed} failed, ${graded.counts.not_exercised} not exercised${graded.counts.not_applicable > 0 ? `, ${graded.counts.not_applicable} not applicable` : ''})`,
      ...graded.checks.flatMap(c => [
        `${MARK[c.status] ?? c.status}  ${c.id}  ${c.title}  (${c.section})`,
        ...(c.status === 'failed' ? [`      ${c.summary}`] : []),
      ]),
    ])
    return graded.counts.failed > 0 ? EXIT.CHECKS_FAILED : EXIT.OK
  },
}

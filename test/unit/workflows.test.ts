import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

/**
 * The release as code (.github/workflows/release.yml, docs/release.md) and the linter that checks
 * every workflow in `npm test` (scripts/lint-workflows.mjs: GitHub's own workflow parser). A
 * workflow GitHub would refuse fails the lint with the parser's word and its line; the release does
 * what docs/release.md promises a maintainer.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const release = readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')
/** A GitHub expression as the workflow writes it (in two parts: the lint takes a plain string with dollar and brace for a mistaken template). */
const expression = (inner: string): string => '$' + `{{ ${inner} }}`

function lint (files: string[]): Promise<{ code: number | null, stdout: string, stderr: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'lint-workflows.mjs'), ...files], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

t.test('the workflow lint fails a workflow GitHub would refuse, with the line and the parser\'s word, and passes the release', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-workflows-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // One defect each, in the release workflow itself: the broken line is the only change.
  const broken: Record<string, { from: string, to: string, message: RegExp }> = {
    'unknown-key.yml': { from: 'timeout-minutes: 20', to: 'timeout-minute: 20', message: /Unexpected value 'timeout-minute'/ },
    'bad-permission.yml': { from: 'id-token: write', to: 'id-tokens: write', message: /Unexpected value 'id-tokens'/ },
    'bad-expression.yml': { from: expression('github.ref_name'), to: expression('github.ref_name )'), message: /Unexpected symbol: '\)'/ },
    'unknown-context.yml': { from: expression('secrets.NPM_TOKEN'), to: expression('secret.NPM_TOKEN'), message: /Unrecognized named-value: 'secret'/ },
    'run-and-uses.yml': { from: '- uses: docker/setup-qemu-action@v4', to: '- uses: docker/setup-qemu-action@v4\n        run: echo both', message: /Unexpected value 'run'/ },
    'unknown-job.yml': { from: 'needs: verify\n    runs-on: ubuntu-24.04\n    timeout-minutes: 20', to: 'needs: verfy\n    runs-on: ubuntu-24.04\n    timeout-minutes: 20', message: /verfy/ },
  }
  for (const [name, { from, to }] of Object.entries(broken)) {
    t.ok(release.includes(from), `${name}: the release has the line it breaks`)
    writeFileSync(join(dir, name), release.replace(from, to))
  }
  writeFileSync(join(dir, 'release.yml'), release)
  const res = await lint(Object.keys(broken).concat('release.yml').map(f => join(dir, f)))
  t.equal(res.code, 1, 'the lint fails')
  for (const [name, { message }] of Object.entries(broken)) {
    const lines = res.stderr.split('\n').filter(l => l.includes(`${name}:`))
    t.ok(lines.some(l => message.test(l) && /\.yml:\d+:\d+ /.test(l)), `${name}: ${String(message)}, at its line`, { stderr: res.stderr })
  }
  t.notMatch(res.stderr, /release\.yml:/, 'the release itself passes')
  t.match(res.stdout, `${Object.keys(broken).length + 1} workflows, problems above`)
})

t.test('the release: on a version tag, after the suite, npm with provenance and a two-platform image on ghcr.io', async t => {
  interface Step { uses?: string, run?: string, with?: Record<string, unknown>, env?: Record<string, string> }
  interface Job { needs?: string, permissions?: Record<string, string>, environment?: string, steps: Step[] }
  const workflow = parse(release) as { on: { push: { tags: string[] } }, permissions: Record<string, string>, jobs: Record<string, Job> }
  t.same(Object.keys(workflow.on), ['push'], 'run by a push only')
  t.same(workflow.on.push.tags, ['v[0-9]+.[0-9]+.[0-9]+*'], 'of a version tag')
  t.same(workflow.permissions, {}, 'nothing granted by default')
  const { verify, npm, image } = workflow.jobs
  const runs = (job: Job): string => job.steps.map(s => s.run ?? '').join('\n')
  t.match(runs(verify), /bash \.ci\/run/, 'the suite runs first, as CI runs it')
  t.match(runs(verify), /"\$TAG" != "v\$version"/, 'the tag must name package.json\'s version')
  t.equal(npm.needs, 'verify')
  t.equal(image.needs, 'verify')

  t.same(npm.permissions, { contents: 'read', 'id-token': 'write' }, 'npm: the OIDC token, for the provenance and trusted publishing')
  t.match(runs(npm), /\*\) npm publish --provenance --access public ;;/, 'a release under the dist-tag latest')
  t.match(runs(npm), /npm publish --provenance --access public --tag next/, 'a pre-release under the dist-tag next')
  t.ok(npm.steps.some(s => s.uses?.startsWith('actions/setup-node@') === true && s.with?.['registry-url'] === 'https://registry.npmjs.org'))

  t.same(image.permissions, { contents: 'read', packages: 'write' }, 'image: the package registry, nothing else')
  const build = image.steps.find(s => s.uses?.startsWith('docker/build-push-action@') === true)
  t.equal(build?.with?.platforms, 'linux/amd64,linux/arm64')
  t.equal(build?.with?.push, true)
  const meta = image.steps.find(s => s.uses?.startsWith('docker/metadata-action@') === true)
  t.equal(meta?.with?.images, `ghcr.io/${expression('github.repository_owner')}/pix-sandbox`)
  t.match(runs(image), /for platform in linux\/amd64 linux\/arm64/, 'the pushed image is started on each platform')
})

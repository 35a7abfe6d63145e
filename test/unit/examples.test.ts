import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { loadConfig } from '../../server/config.js'
import { packageRoot } from '../../server/paths.js'

/**
 * What needs a Docker engine cannot run here (the image is built and run by the container check,
 * .ci/container-smoke.sh); what can be checked is that the Dockerfile, the compose file, the GitHub
 * Actions workflow and the Testcontainers snippet of docs/docker.md agree with the server: every flag
 * they pass is a valid setting, every port and path they wait on is where the server answers, and a
 * container that sends webhooks to host.docker.internal can resolve that name on Linux.
 */

const read = (path: string): string => readFileSync(join(packageRoot, path), 'utf8')
const pkg = JSON.parse(read('package.json')) as { version: string, description: string }
const dockerfile = read('Dockerfile')
const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))

/** The environment the image sets (ENV of its last stage). */
const imageEnv: Record<string, string> = Object.fromEntries([...runtime.matchAll(/^ENV (.+)$/gm)].flatMap(m => m[1].split(/\s+/).map(kv => kv.split('=') as [string, string])))

t.test('the image takes flags after its name, keeps state in /data as its own user, and checks its health where it listens', async t => {
  t.match(runtime, /^ENTRYPOINT \["node", "dist\/server\/main\.js"\]$/m, 'flags after the image name reach main.js')
  t.notMatch(runtime, /^CMD /m, 'no CMD for a flag to replace')
  t.match(runtime, /^HEALTHCHECK .* CMD \["node", "dist\/server\/healthcheck\.js"\]$/m)
  t.ok(existsSync(join(packageRoot, 'server', 'healthcheck.ts')), 'the check is built from server/healthcheck.ts')
  t.match(runtime, /RUN mkdir \/data && chown node:node \/data\nVOLUME \/data\nUSER node\n/, '/data is created, owned by node, then declared a volume')
  // JSON log lines in a container, where a log collector reads them (a terminal gets the pretty ones).
  t.same(imageEnv, { NODE_ENV: 'production', PORT: '8080', HOST: '0.0.0.0', LOG_FORMAT: 'json' })
  t.match(runtime, /^EXPOSE 8080$/m)
  t.equal(/^ARG VERSION=(.+)$/m.exec(runtime)?.[1], pkg.version, 'the version label is the package\'s')
  for (const label of ['title', 'description', 'version', 'source', 'revision', 'licenses']) t.match(runtime, `org.opencontainers.image.${label}=`, `label ${label}`)
  t.ok(runtime.includes(`org.opencontainers.image.description="${pkg.description}"`), 'the description is the package\'s')
  t.notMatch(runtime, /npm (ci|install)/, 'the runtime stage installs nothing: it copies the pruned production dependencies')
  t.match(dockerfile, /FROM node:24-bookworm-slim AS prod\n[^]*RUN npm ci --omit=dev/, 'production dependencies only (no tsx, esbuild or Chromium)')
  t.match(runtime, /COPY --from=slim \/app\/node_modules \.\/node_modules/)
})

t.test('the compose file: its flags are valid settings, its data file is on its volume, its port is the server\'s, and the host is reachable for webhooks', async t => {
  const compose = parse(read('examples/docker-compose.yml')) as { services: Record<string, { build: string, command: string[], environment: Record<string, string>, ports: string[], volumes: string[], extra_hosts?: string[] }>, volumes: Record<string, unknown> }
  const pix = compose.services.pix
  t.ok(existsSync(join(packageRoot, 'examples', pix.build, 'Dockerfile')), 'it builds this repository\'s Dockerfile')
  const config = loadConfig({ ...imageEnv, ...pix.environment }, pix.command)
  t.match(config.data, /^\/data\//)
  t.same(pix.volumes, ['pix-data:/data'])
  t.ok('pix-data' in compose.volumes)
  t.same(pix.ports, [`${config.port}:${config.port}`])
  // Docker on Linux defines no host.docker.internal: without this, SANDBOX_WEBHOOK_URL's host does not resolve.
  t.same(pix.extra_hosts, [HOST_GATEWAY], 'host.docker.internal maps to the host')
})

/** What Docker on Linux needs for a container to reach the host by the name Docker Desktop gives it. */
const HOST_GATEWAY = 'host.docker.internal:host-gateway'

interface Step { uses?: string, run?: string, with?: Record<string, string>, env?: Record<string, string> }

t.test('the GitHub Actions workflow is a consumer\'s: its own checkout, pix-sandbox\'s at a pinned ref, the image built from it, run with valid flags and the host reachable, a wait on health, the consumer\'s tests on that port', async t => {
  const workflow = parse(read('examples/github-actions.yml')) as { jobs: Record<string, { 'runs-on': string, env: Record<string, string>, steps: Step[] }> }
  const [job] = Object.values(workflow.jobs)
  t.ok(job['runs-on'], 'a runner')
  const steps = job.steps
  const index = (match: (s: Step) => boolean): number => steps.findIndex(match)
  const checkout = (s: Step): boolean => /^actions\/checkout@/.test(s.uses ?? '')
  const order = [
    index(s => checkout(s) && s.with === undefined),
    index(s => checkout(s) && s.with?.repository !== undefined),
    index(s => /docker build -t pix-sandbox/.test(s.run ?? '')),
    index(s => /docker run -d/.test(s.run ?? '')),
    index(s => /__sandbox\/health/.test(s.run ?? '')),
    index(s => /^npm test$/m.test(s.run ?? '')),
  ]
  t.notOk(order.includes(-1), `every step is there (${order.join(', ')})`)
  t.same([...order].sort((a, b) => a - b), order, 'in that order')

  const sandboxCheckout = steps[order[1]].with!
  // GitHub's expressions, ${{ ... }}, taken from the job's env.
  t.equal(sandboxCheckout.repository, '$' + '{{ env.PIX_SANDBOX_REPOSITORY }}')
  t.equal(sandboxCheckout.ref, '$' + '{{ env.PIX_SANDBOX_REF }}', 'at the commit or tag the consumer pins')
  t.match(job.env, { PIX_SANDBOX_REPOSITORY: /\/pix-sandbox$/, PIX_SANDBOX_REF: String })
  t.match(steps[order[2]].run!, new RegExp(`docker build -t pix-sandbox ${sandboxCheckout.path}$`), 'the image is built from that checkout')
  t.notMatch(read('examples/github-actions.yml'), /npm run build|examples\/container\.test\.mjs/, 'nothing of this repository\'s own build or tests')

  const run = /docker run -d (.*?) pix-sandbox (.*)$/m.exec(steps[order[3]].run!)!
  const config = loadConfig(imageEnv, run[2].trim().split(/\s+/))
  t.match(run[1], `-p ${config.port}:${config.port}`)
  t.match(run[1], `--add-host=${HOST_GATEWAY}`, 'the sandbox\'s webhooks reach a receiver on the runner')
  t.match(steps[order[4]].run!, `http://127.0.0.1:${config.port}/__sandbox/health`)
  t.equal(steps[order[5]].env?.PIX_BASE_URL, `http://127.0.0.1:${config.port}`)
})

t.test('docs/docker.md links the workflow, and its Testcontainers snippet passes valid flags and waits on the health route', async t => {
  const page = read('docs/docker.md')
  t.match(page, '[examples/github-actions.yml](../examples/github-actions.yml)')
  const snippet = /```js\nimport \{ GenericContainer, Wait \} from 'testcontainers'\n([^]*?)```/.exec(page)?.[1] ?? ''
  const flags = JSON.parse((/\.withCommand\((\[.*?\])\)/.exec(snippet)?.[1] ?? '[]').replace(/'/g, '"')) as string[]
  t.ok(flags.length > 0, 'it passes flags')
  const config = loadConfig(imageEnv, flags)
  t.match(snippet, `.withExposedPorts(${config.port})`)
  t.match(snippet, `Wait.forHttp('/__sandbox/health', ${config.port})`)
  t.match(snippet, `getMappedPort(${config.port})`)
})

t.test('every docker run of the documentation that sends webhooks to host.docker.internal maps that name to the host', async t => {
  const pages = ['README.md', ...readdirSync(join(packageRoot, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`)]
  let runs = 0
  for (const page of pages) {
    // A command continued with a backslash is one command.
    for (const command of read(page).replace(/\\\n\s*/g, ' ').split('\n').filter(l => /docker run .*host\.docker\.internal/.test(l))) {
      runs++
      t.match(command, `--add-host=${HOST_GATEWAY}`, `${page}: ${command.trim().slice(0, 100)}`)
    }
  }
  t.ok(runs > 0, `the documentation shows one (${runs})`)
})

import t from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { packageRoot } from '../../server/paths.js'

/**
 * The documentation a newcomer reads: every relative link reaches a file and, with an anchor, a
 * heading of it; docs/gateway.md keeps the interface's numbering, so a citation by number stays
 * exact; and no page reads like a diary.
 */
const docs = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(join(packageRoot, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`),
]

const read = (file: string): string => readFileSync(join(packageRoot, file), 'utf8')

/** Markdown without its fenced code blocks, where `[x](y)` and `# x` mean nothing. */
const prose = (md: string): string => md.replace(/^```[\s\S]*?^```/gm, '')

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug (heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

function anchorsOf (md: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const m of prose(md).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = slug(m[1])
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

t.test('every relative link of the documentation reaches a file, and its anchor a heading', async t => {
  const broken: string[] = []
  let links = 0
  for (const file of docs) {
    for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]
      if (/^[a-z]+:/i.test(target)) continue
      links++
      const [path, anchor] = target.split('#') as [string, string | undefined]
      const resolved = path === '' ? file : relative(packageRoot, join(packageRoot, dirname(file), path))
      if (!existsSync(join(packageRoot, resolved))) broken.push(`${file}: ${target} (no such file)`)
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(decodeURIComponent(anchor))) {
        broken.push(`${file}: ${target} (no such heading in ${resolved})`)
      }
    }
  }
  t.ok(links > 50, `the pages link to each other (${links} links)`)
  t.same(broken, [], 'no broken link')
})

/** Sections of the gateway's interface, as it numbers them. */
const GATEWAY_SECTIONS = [
  '1', '2', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '2.11',
  '3', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '4', '4.1', '5',
  '6', '6.1', '6.2', '6.3', '6.4',
  '7', '7.1', '7.2', '7.3', '7.4', '7.5', '7.6', '7.7', '7.8', '7.9', '7.10', '7.11', '8', '9',
]

/** The section numbers docs/gateway.md has headings for. */
function gatewaySections (): string[] {
  return [...prose(read('docs/gateway.md')).matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map(m => m[1])
}

t.test('docs/gateway.md has every section of the interface, in its order, and no other', async t => {
  t.same(gatewaySections(), GATEWAY_SECTIONS)
})

t.test('docs/gateway.md marks what the interface does not show and points at the decision', async t => {
  const md = read('docs/gateway.md')
  const notShown = md.split('\n\n').filter(p => /not shown/i.test(p))
  t.ok(notShown.length >= 15, `every "not shown" of the interface is kept (${notShown.length})`)
  for (const p of notShown) t.match(p, /assumptions\.md/, `points at assumptions.md: ${p.slice(0, 80)}...`)
})

t.test('no page reads like a diary: it says what is true now', async t => {
  const diary = /\b(this session|the session's|previously|the run before|the previous (run|table)|earlier (fuzz )?runs?)\b/i
  const found = docs.flatMap(file => read(file).split('\n').flatMap((line, i) => diary.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []))
  t.same(found, [], 'no line tells the story of a run or a session')
})

t.test('every section of docs/gateway.md that the code cites exists', async t => {
  const headings = new Set([...read('docs/gateway.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map(m => m[1]))
  const sources = (dir: string): string[] => readdirSync(join(packageRoot, dir), { recursive: true, withFileTypes: true })
    .filter(e => e.isFile() && /\.(ts|js|mjs)$/.test(e.name))
    .map(e => relative(packageRoot, join(e.parentPath, e.name)))
  let cited = 0
  for (const file of ['server', 'scenarios', 'client', 'test'].flatMap(sources)) {
    for (const m of read(file).matchAll(/docs\/gateway\.md §(\d+(?:\.\d+)?)/g)) {
      cited++
      t.ok(headings.has(m[1]), `${file} cites docs/gateway.md §${m[1]}`)
    }
  }
  t.ok(cited > 50, `the code cites the gateway's sections (${cited} citations)`)
  t.notOk(headings.has('99.9'), 'a section that does not exist is not found')
})

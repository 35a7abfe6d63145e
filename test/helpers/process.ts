/**
 * What a spawned sandbox process adds to its environment. tap's process-info hook instruments every
 * child process for coverage; a child runs our TypeScript through tsx, whose line maps differ from
 * those of tap's own TypeScript plugin, and merging the two under-reports coverage of files the
 * in-process tests cover fully. So children write no coverage.
 */
export function childEnv (): Record<string, string> {
  return { _TAPJS_PROCESSINFO_COVERAGE_: '0' }
}

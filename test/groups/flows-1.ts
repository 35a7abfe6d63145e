import t from 'tap'
import { runGroup } from '../loader/group.js'
import { commandBundle } from '../helpers/command-bundle.js'
import { JOURNALED } from '../reliability/journal-completeness/suites.js'

runGroup(t, 'flows', 1, 4, { jobs: 2, prepare: commandBundle, skip: JOURNALED })

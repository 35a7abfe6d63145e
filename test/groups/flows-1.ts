import t from 'tap'
import { runGroup } from '../loader/group.js'

runGroup(t, 'flows', 1, 4, { jobs: 2 })

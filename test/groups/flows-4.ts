import t from 'tap'
import { runGroup } from '../loader/group.js'

runGroup(t, 'flows', 4, 4, { jobs: 2 })

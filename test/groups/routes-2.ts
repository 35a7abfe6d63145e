import t from 'tap'
import { runGroup } from '../loader/group.js'

runGroup(t, 'routes', 2, 3)

import t from 'tap'
import { runGroup } from '../loader/group.js'

runGroup(t, 'routes', 3, 3)

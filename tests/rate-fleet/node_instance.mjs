// One Node instance of the rate-limit fleet test (test_rate_fleet.py): a stdio server with an
// `echo` tool behind `redisRateLimit`, the core's bucket in Redis (node-redis from
// examples/node, linked by test.sh).
//   node tests/rate-fleet/node_instance.mjs <redis-url> <prefix> <rate> <burst>
import { createRequire } from 'node:module'

import { McpServer, serveStdio } from '../../bindings-node/server.mjs'
import { redisRateLimit } from '../../bindings-node/js/redis.mjs'

const { createClient } = createRequire(new URL('../../examples/node/package.json', import.meta.url))('redis')
const [url, prefix, rate, burst] = process.argv.slice(2)
const client = createClient({ url })
await client.connect()
const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }), jsonSchema: { input: () => ({ type: 'object' }) } } }
const server = new McpServer({ name: 'rate', version: '1.0.0' })
server.registerTool('echo', { description: 'echo', inputSchema: ANY }, async () => ({ content: [{ type: 'text', text: 'node' }] }))
server.use(redisRateLimit({ client, rate: Number(rate), burst: Number(burst), prefix }))
process.stdin.on('end', () => { client.quit().catch(() => {}) })
await serveStdio(server)

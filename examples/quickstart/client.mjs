import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'

const client = new Client({ name: 'quickstart', version: '1.0.0' })
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['server.mjs'] }))
const { contents } = await client.readResource({ uri: 'hello://users/ada' })
console.log(contents[0].text)
await client.close()

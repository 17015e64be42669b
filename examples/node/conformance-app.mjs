// The conformance fixtures (the official suite's server scenarios) and a small demo
// catalogue, on `McpServer` (mcp-context/server, or mcp-context/wasm: `createApp(pkg)`).
import * as z from 'zod'

// A 1×1 transparent PNG.
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const NOTES = { 1: 'Launch checklist: DNS, TLS, on-call rota.', 2: 'Incident 42: an expired certificate.' }

const text = (t) => ({ role: 'user', content: { type: 'text', text: t } })
const prefixed = (values) => (v) => values.filter((x) => x.startsWith(v))

export function createApp({ McpServer, ResourceTemplate, ResourceNotFoundError, McpError, completable }) {
  const server = new McpServer(
    { name: 'mcp-context-node-example', version: '0.1.0' },
    {
      instructions: 'Conformance fixtures (test://…) and demo notes (demo://notes/{id}).',
      // input_required rounds carry sealed state; a fixed demo key (a real server keeps it secret).
      stateKeys: [{ id: 1, secret: new Uint8Array(32).fill(7) }],
    },
  )
  server.registerResource('static-text', 'test://static-text', { description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }))
  server.registerResource('static-binary', 'test://static-binary', { description: 'A static binary resource (PNG)', mimeType: 'image/png' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }] }))
  server.registerResource('template-data', new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'Data for an id', mimeType: 'application/json' },
    (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] }))
  server.registerResource('readme', 'demo://readme',
    { title: 'About this server', description: 'What the demo serves', mimeType: 'text/markdown', cacheHint: { ttlMs: 3_600_000, cacheScope: 'public' } },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Demo\n\nNotes live at `demo://notes/{id}`.\n' }] }))
  server.registerResource('note', new ResourceTemplate('demo://notes/{id}', { list: undefined, complete: { id: prefixed(Object.keys(NOTES)) } }),
    { title: 'Note', description: 'A demo note', mimeType: 'text/plain', cacheHint: { ttlMs: 10_000, cacheScope: 'private' } },
    async (uri, { id }) => {
      if (!Object.hasOwn(NOTES, id)) throw new ResourceNotFoundError(uri.href)
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: NOTES[id] }] }
    })

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt without arguments' },
    () => ({ messages: [text('This is a simple prompt for testing.')] }))
  server.registerPrompt('test_prompt_with_arguments', {
    description: 'A prompt with two required arguments',
    argsSchema: z.object({
      arg1: completable(z.string().describe('First test argument'), prefixed(['paris', 'park', 'party'])),
      arg2: completable(z.string().describe('Second test argument'), prefixed(['world', 'wide'])),
    }),
  }, ({ arg1, arg2 }) => ({ messages: [text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)] }))
  server.registerPrompt('test_prompt_with_embedded_resource', {
    description: 'A prompt embedding a resource',
    argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
  }, ({ resourceUri }) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      text('Please process the embedded resource above.'),
    ],
  }))
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } }, text('Please analyze the image above.')],
  }))
  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that asks the user for context first' }, (ctx) => {
    const context = ctx.mcpReq.inputResponses?.user_context?.content?.context
    if (typeof context === 'string') return { messages: [text(`Use this context: ${context}`)] }
    return {
      resultType: 'input_required',
      inputRequests: {
        user_context: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          },
        },
      },
      requestState: 'round-1',
    }
  })
  server.registerPrompt('summarize_note', {
    title: 'Summarize a note',
    description: 'Summarize a demo note',
    argsSchema: z.object({ id: completable(z.string(), prefixed(Object.keys(NOTES))) }),
  }, ({ id }) => {
    if (!Object.hasOwn(NOTES, id)) throw new McpError(-32602, `No note ${id}`)
    return {
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: `demo://notes/${id}`, mimeType: 'text/plain', text: NOTES[id] } } },
        text('Summarize the note above in one sentence.'),
      ],
    }
  })
  return server
}

// The conformance fixtures (the official suite's server scenarios) and a small demo
// catalogue, on one ServerMachine. `onEvent` answers what the machine cannot answer alone.
import { ServerMachine } from '../../bindings-node/index.js'

// A 1×1 transparent PNG.
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const TEMPLATE = 'test://template/{id}/data'
const NOTE = 'demo://notes/{id}'
const NOTES = { 1: 'Launch checklist: DNS, TLS, on-call rota.', 2: 'Incident 42: an expired certificate.' }

export function createApp() {
  const server = new ServerMachine({
    serverInfo: { name: 'mcp-context-node-example', version: '0.1.0' },
    instructions: 'Conformance fixtures (test://…) and demo notes (demo://notes/{id}).',
    // input_required rounds carry sealed state; a fixed demo key (a real server keeps it secret).
    stateKeys: [{ id: 1, secret: Buffer.alloc(32, 7) }],
  })
  server.addResource(
    { uri: 'test://static-text', name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
    [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  )
  server.addResource(
    { uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (PNG)', mimeType: 'image/png' },
    [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG }],
  )
  server.addTemplate({ uriTemplate: TEMPLATE, name: 'template-data', description: 'Data for an id', mimeType: 'application/json' })
  server.addResource(
    { uri: 'demo://readme', name: 'readme', title: 'About this server', description: 'What the demo serves', mimeType: 'text/markdown' },
    [{ uri: 'demo://readme', mimeType: 'text/markdown', text: '# Demo\n\nNotes live at `demo://notes/{id}`.\n' }],
    { ttlMs: 3_600_000, cacheScope: 'public' },
  )
  server.addTemplate(
    { uriTemplate: NOTE, name: 'note', title: 'Note', description: 'A demo note', mimeType: 'text/plain' },
    { ttlMs: 10_000, cacheScope: 'private' },
    { id: Object.keys(NOTES) },
  )
  server.addPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  server.addPrompt(
    {
      name: 'test_prompt_with_arguments', description: 'A prompt with two required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    { arg1: ['paris', 'park', 'party'], arg2: ['world', 'wide'] },
  )
  server.addPrompt({
    name: 'test_prompt_with_embedded_resource', description: 'A prompt embedding a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  })
  server.addPrompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
  server.addPrompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for context first' })
  server.addPrompt(
    { name: 'summarize_note', title: 'Summarize a note', description: 'Summarize a demo note', arguments: [{ name: 'id', required: true }] },
    { id: Object.keys(NOTES) },
  )
  return { server, onEvent }
}

const text = (t) => ({ role: 'user', content: { type: 'text', text: t } })

function onEvent(server, e) {
  switch (e.type) {
    case 'readResource': return read(server, e)
    case 'getPrompt': return prompt(server, e)
    case 'complete': return server.respondCompletion(e.handle, [])
    default: return undefined // cancelled, streamOverflow: nothing to clean up here
  }
}

function read(server, e) {
  if (e.target === 'template' && e.template === TEMPLATE) {
    const id = e.variables.id
    return server.respondRead(e.handle, [{
      uri: e.uri, mimeType: 'application/json',
      text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    }])
  }
  if (e.target === 'template' && e.template === NOTE && NOTES[e.variables.id]) {
    return server.respondRead(e.handle, [{ uri: e.uri, mimeType: 'text/plain', text: NOTES[e.variables.id] }])
  }
  return server.fail(e.handle, { kind: 'notFound' })
}

function prompt(server, e) {
  const a = e.arguments
  switch (e.name) {
    case 'test_simple_prompt':
      return server.respondPrompt(e.handle, { messages: [text('This is a simple prompt for testing.')] })
    case 'test_prompt_with_arguments':
      return server.respondPrompt(e.handle, { messages: [text(`Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'`)] })
    case 'test_prompt_with_embedded_resource':
      return server.respondPrompt(e.handle, {
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: a.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
          text('Please process the embedded resource above.'),
        ],
      })
    case 'test_prompt_with_image':
      return server.respondPrompt(e.handle, {
        messages: [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } }, text('Please analyze the image above.')],
      })
    case 'test_input_required_result_prompt': {
      const answer = e.retry?.inputResponses?.user_context
      const context = answer?.content?.context
      if (typeof context === 'string') {
        return server.respondPrompt(e.handle, { messages: [text(`Use this context: ${context}`)] })
      }
      return server.respondInputRequired(e.handle, {
        user_context: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'What context should the prompt use?',
            requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
          },
        },
      }, Buffer.from('round-1'))
    }
    case 'summarize_note': {
      const note = NOTES[a.id]
      if (!note) return server.fail(e.handle, { kind: 'invalidParams', message: `No note ${a.id}` })
      return server.respondPrompt(e.handle, {
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: `demo://notes/${a.id}`, mimeType: 'text/plain', text: note } } },
          text('Summarize the note above in one sentence.'),
        ],
      })
    }
    default:
      return server.fail(e.handle, { kind: 'notFound' })
  }
}

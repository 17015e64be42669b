// The conformance fixtures (the official suite's server scenarios: resources, prompts and
// the tools it calls, served through the core's extension methods) and a small demo
// catalogue, on `McpServer` (mcp-context-primitives/server, or mcp-context-primitives/wasm: `createApp(pkg)`).
import * as z from 'zod'

// A minimal WAV (44-byte header, no samples).
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA='
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
  registerTools(server)
  return server
}

const ask = (message, properties, required) => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties, required } },
})
const NAME = ask('What is your name?', { name: { type: 'string' } }, ['name'])
const inputRequired = (inputRequests, requestState) => ({ resultType: 'input_required', inputRequests, ...(requestState ? { requestState } : {}) })
const said = (t) => ({ content: [{ type: 'text', text: t }] })
const state = (ctx) => (ctx.mcpReq.requestState ? new TextDecoder().decode(ctx.mcpReq.requestState) : undefined)

function registerTools(server) {
  server.registerTool('test_simple_text', { description: 'Returns simple text' }, () => said('This is a simple text response for testing.'))
  server.registerTool('test_image_content', { description: 'Returns an image' }, () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }))
  server.registerTool('test_audio_content', { description: 'Returns audio' }, () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }))
  server.registerTool('test_embedded_resource', { description: 'Returns an embedded resource' }, () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }))
  server.registerTool('test_multiple_content_types', { description: 'Returns text, an image and a resource' }, () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  }))
  server.registerTool('test_error_handling', { description: 'Always fails' }, () => {
    throw new Error('This tool intentionally returns an error for testing')
  })
  server.registerTool('test_tool_with_progress', { description: 'Reports progress' }, async (ctx) => {
    for (const p of [0, 50, 100]) {
      ctx.progress(p, 100, `step ${p}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return said('Progress complete')
  })
  server.registerTool('test_logging_tool', { description: 'Logs nothing unless asked' }, () => said('Logging tool done'))
  server.registerTool('test_streaming_elicitation', { description: 'Answers on its own response stream' }, () => said('Streaming done'))
  server.registerTool('test_missing_capability', { description: 'Needs the sampling capability' }, (ctx) =>
    ctx.mcpReq.inputResponses?.sample ? said('Sampled') : inputRequired({
      sample: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 } },
    }))
  server.registerTool('test_trigger_prompt_change', { description: 'Announces a prompts list change' }, () => {
    server.sendPromptListChanged()
    return said('Prompt list changed')
  })

  server.registerTool('test_input_required_result_elicitation', { description: 'Asks the user for a name' }, (ctx) => {
    const name = ctx.mcpReq.inputResponses?.user_name?.content?.name
    return typeof name === 'string' ? said(`Hello, ${name}!`) : inputRequired({ user_name: NAME })
  })
  server.registerTool('test_input_required_result_sampling', { description: 'Asks the client to sample' }, (ctx) => {
    const r = ctx.mcpReq.inputResponses?.capital_question
    return r ? said(`The model said: ${r.content?.text ?? ''}`) : inputRequired({
      capital_question: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 } },
    })
  })
  server.registerTool('test_input_required_result_list_roots', { description: 'Asks for the client roots' }, (ctx) => {
    const r = ctx.mcpReq.inputResponses?.client_roots
    return r ? said(`Roots: ${(r.roots ?? []).map((x) => x.uri).join(', ')}`) : inputRequired({ client_roots: { method: 'roots/list', params: {} } })
  })
  server.registerTool('test_input_required_result_request_state', { description: 'Round-trips sealed state' }, (ctx) => {
    if (ctx.mcpReq.inputResponses?.confirm && state(ctx) === 'confirm-1') return said('state-ok: confirmed')
    return inputRequired({ confirm: ask('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, 'confirm-1')
  })
  server.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks for three inputs at once' }, (ctx) => {
    const r = ctx.mcpReq.inputResponses
    if (r?.user_name && r?.greeting && r?.client_roots && state(ctx) === 'multi-1') return said(`Hello, ${r.user_name.content?.name}! All inputs received.`)
    return inputRequired({
      user_name: NAME,
      greeting: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 } },
      client_roots: { method: 'roots/list', params: {} },
    }, 'multi-1')
  })
  server.registerTool('test_input_required_result_multi_round', { description: 'Asks twice' }, (ctx) => {
    const r = ctx.mcpReq.inputResponses
    if (state(ctx) === 'round-2' && r?.step2) return said(`Done: ${r.step2.content?.color}`)
    if (state(ctx) === 'round-1' && r?.step1) {
      return inputRequired({ step2: ask('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, 'round-2')
    }
    return inputRequired({ step1: ask('Step 1: What is your name?', { name: { type: 'string' } }, ['name']) }, 'round-1')
  })
  server.registerTool('test_input_required_result_capabilities', { description: 'Asks only for what the client declared' }, (ctx) => {
    if (ctx.mcpReq.inputResponses) return said('Thanks')
    const c = ctx.capabilities
    const requests = {}
    if (c.elicitationForm) requests.user_name = NAME
    if (c.sampling) requests.greeting = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 } }
    if (c.roots) requests.client_roots = { method: 'roots/list', params: {} }
    return Object.keys(requests).length ? inputRequired(requests) : said('No input needed')
  })
  server.registerTool('test_input_required_result_tampered_state', { description: 'Rejects tampered state' }, (ctx) =>
    (state(ctx) === 'untampered' && ctx.mcpReq.inputResponses?.confirm ? said('state-ok') : inputRequired({ confirm: ask('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, 'untampered')))
  registerLegacyEraTools(server)
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
// The answer to input request `key` of an earlier round, if any.
const answer = (ctx, key) => ctx.mcpReq.inputResponses?.[key]

// The tools the suite calls at --spec-version 2025-11-25. They are written as for a modern
// client (input_required, then the retry); for a 2025-11-25 session the core sends the input
// requests to the client as elicitation/create and sampling/createMessage requests and
// hands the answers back as the same retry.
function registerLegacyEraTools(server) {
  server.registerTool('test_tool_with_logging', { description: 'Logs three lines while it runs' }, async (ctx) => {
    ctx.log('info', 'Tool execution started')
    await sleep(50)
    ctx.log('info', 'Tool processing data')
    await sleep(50)
    ctx.log('info', 'Tool execution completed')
    return said('Logging tool completed')
  })
  server.registerTool('test_sampling', {
    description: 'Asks the client to sample',
    inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
  }, ({ prompt }, ctx) => {
    const r = answer(ctx, 'sample')
    if (r) return said(`LLM response: ${r.content?.text ?? ''}`)
    return inputRequired({ sample: { method: 'sampling/createMessage', params: { messages: [text(prompt)], maxTokens: 100 } } })
  })
  server.registerTool('test_elicitation', {
    description: 'Asks the user for input',
    inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
  }, ({ message }, ctx) => {
    const r = answer(ctx, 'user')
    if (r) return said(`User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`)
    return inputRequired({
      user: ask(message, {
        username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" },
      }, ['username', 'email']),
    })
  })
  const elicited = (key, message, properties) => (ctx) => {
    const r = answer(ctx, key)
    if (r) return said(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`)
    return inputRequired({ [key]: ask(message, properties, []) })
  }
  server.registerTool('test_elicitation_sep1034_defaults', { description: 'Elicits with default values' }, elicited('defaults', 'Please review your details', {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  }))
  server.registerTool('test_elicitation_sep1330_enums', { description: 'Elicits with every enum form' }, elicited('enums', 'Please pick options', {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
  }))
}

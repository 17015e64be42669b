// The knowledge base (kb.mjs) on the official SDK (@modelcontextprotocol/server 2.4.0), for
// the HTTP benchmark (bindings-node/bench/http.mjs) and the line count. Same data, same code
// but for the imports and the tone completion (the SDK does not complete enums by itself).
import { completable, McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server'
import * as z from 'zod'

import { CHARTER, CHARTER_URI, RULES, SHEET_TEMPLATE, SHEETS } from './kb.mjs'

const TONES = ['formel', 'chaleureux']
const md = (uri, text) => ({ contents: [{ uri, mimeType: 'text/markdown', text }] })

export function createSdkKb() {
  const server = new McpServer({ name: 'acme-kb', title: 'Base de connaissances support — Acme Assurances', version: '1.0.0' }, {
    instructions: 'Lisez la charte (kb://acme/charte-reponse) avant de répondre ; les procédures sont sous kb://acme/fiches/{slug}.',
  })
  server.registerResource('charte-reponse', CHARTER_URI,
    { title: 'Charte de réponse', description: 'Ton, formulations et engagements de toute réponse', mimeType: 'text/markdown', cacheHint: { ttlMs: 3_600_000, cacheScope: 'public' } },
    (uri) => md(uri.href, CHARTER))
  const sheets = new ResourceTemplate(SHEET_TEMPLATE, {
    list: () => ({ resources: Object.entries(SHEETS).map(([slug, s]) => ({ uri: `kb://acme/fiches/${slug}`, name: slug, title: s.title, description: `Fiche procédure : ${s.title}`, mimeType: 'text/markdown' })) }),
    complete: { slug: (value) => Object.keys(SHEETS).filter((slug) => slug.startsWith(value)) },
  })
  server.registerResource('fiche', sheets,
    { title: 'Fiche procédure', description: 'Une fiche procédure par slug', mimeType: 'text/markdown', cacheHint: { ttlMs: 60_000, cacheScope: 'public' } },
    (uri, { slug }) => {
      if (!Object.hasOwn(SHEETS, slug)) throw new ResourceNotFoundError(uri.href) // -32602 with data.uri
      return md(uri.href, `# ${SHEETS[slug].title}\n\n${SHEETS[slug].body}\n`)
    })
  server.registerPrompt('repondre_ticket', {
    title: 'Répondre à un ticket',
    description: 'Rédiger la réponse à un ticket dans le respect de la charte',
    argsSchema: z.object({
      ticketId: z.string().describe('Identifiant du ticket'),
      ton: completable(z.enum(TONES).optional().describe('formel ou chaleureux (défaut : formel)'), (v) => TONES.filter((t) => t.startsWith(v))),
    }),
  }, ({ ticketId, ton = 'formel' }) => ({
    description: `Réponse au ticket ${ticketId} (${ton})`,
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: CHARTER_URI, mimeType: 'text/markdown', text: CHARTER } } },
      { role: 'user', content: { type: 'text', text: `Lisez le ticket ${ticketId} et rédigez la réponse au client sur un ton ${ton}, dans le respect de la charte ci-dessus.\n${RULES}` } },
    ],
  }))
  return server
}

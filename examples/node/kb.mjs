// A support knowledge base for a fictional insurer (Acme Assurances) on `McpServer`:
//   kb://acme/charte-reponse    the reply charter (tone, phrasings, commitments), markdown
//   kb://acme/fiches/{slug}     procedure sheets: listed, `slug` completed by prefix, a
//                               missing sheet is a read error
//   repondre_ticket             prompt: ticketId (required), ton (formel | chaleureux)
// Run: node examples/node/kb.mjs [--http PORT] [--wasm]   (stdio without --http)
// `createKb(pkg)` builds it on either engine: `mcp-context-primitives/server` (napi) or `mcp-context-primitives/wasm`.
import * as z from 'zod'

// --- data ----------------------------------------------------------------------------------
export const CHARTER_URI = 'kb://acme/charte-reponse'
export const SHEET_TEMPLATE = 'kb://acme/fiches/{slug}'
export const CHARTER = `# Charte de réponse — Acme Assurances

## Ton
- Vouvoiement systématique ; phrases courtes ; aucun jargon sans explication.
- Reconnaître la situation du client dès la première phrase.

## Formulations
- « Nous avons bien reçu votre demande » plutôt que « Votre demande a été enregistrée ».
- Nommer l'interlocuteur suivant : « votre gestionnaire sinistres », jamais « le service ».

## Engagements
- Accusé de réception sous 24 heures ouvrées.
- Proposition d'indemnisation sous 30 jours après réception du dossier complet.
- Aucun autre délai ne peut être promis.

## Interdits
- Promettre une prise en charge avant l'expertise.
- Communiquer des données d'un autre assuré.
`

// The reply instruction's fixed rules (after the ticket line).
export const RULES = 'Ne promettez aucun délai qui ne figure pas dans la charte.\nTerminez par une checklist des actions à mener (cases à cocher « - [ ] »).'

export const SHEETS = {
  'attestation-assurance': {
    title: 'Obtenir une attestation d’assurance',
    body: '1. Espace client > Mes contrats.\n2. Choisir le contrat, puis « Attestation ».\n3. Le PDF est disponible immédiatement.',
  },
  'changement-adresse': {
    title: 'Changer d’adresse',
    body: '1. Demander la nouvelle adresse et la date d’effet.\n2. Mettre à jour la fiche client.\n3. Vérifier l’impact sur la prime habitation.',
  },
  'declarer-sinistre-auto': {
    title: 'Déclarer un sinistre automobile',
    body: '1. Recueillir le constat amiable (recto et verso).\n2. Ouvrir le dossier sinistre sous 5 jours ouvrés.\n3. Missionner un expert si les dégâts dépassent 1 500 €.',
  },
  'declarer-degat-des-eaux': {
    title: 'Déclarer un dégât des eaux',
    body: '1. Demander photos et facture de recherche de fuite.\n2. Ouvrir le dossier sous 5 jours ouvrés.\n3. Convention IRSI : identifier l’assureur gestionnaire.',
  },
  'resiliation-contrat': {
    title: 'Résilier un contrat',
    body: '1. Vérifier l’échéance et le motif (loi Hamon, Chatel, changement de situation).\n2. Confirmer par écrit la date d’effet.\n3. Rembourser le prorata de prime.',
  },
}

// --- end of data ---------------------------------------------------------------------------

const md = (uri, text) => ({ contents: [{ uri, mimeType: 'text/markdown', text }] })

export function createKb({ McpServer, ResourceTemplate, ResourceNotFoundError }) {
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
      ton: z.enum(['formel', 'chaleureux']).optional().describe('formel ou chaleureux (défaut : formel)'),
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

// Run as a program: stdio, or Streamable HTTP with --http PORT (prints the URL).
if (globalThis.process?.argv?.[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const args = process.argv.slice(2)
  const pkg = await import(args.includes('--wasm') ? 'mcp-context-primitives/wasm' : 'mcp-context-primitives/server')
  const at = args.indexOf('--http')
  if (at < 0) await pkg.serveStdio(createKb(pkg))
  else console.log(`listening http://127.0.0.1:${(await pkg.serveHttp(createKb(pkg), { port: Number(args[at + 1]) || 0 })).address().port}/mcp`)
}

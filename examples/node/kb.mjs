// A support knowledge base for a fictional insurer (Acme Assurances), on ServerMachine:
//   kb://acme/charte-reponse    the reply charter (tone, phrasings, commitments), markdown
//   kb://acme/fiches/{slug}     procedure sheets: each existing sheet is listed; `slug` is
//                               completed by prefix; a missing sheet is a read error
//   repondre_ticket             prompt: ticketId (required), ton (formel | chaleureux)
// Run: node examples/node/server.mjs --kb [--http PORT]
import { ServerMachine } from '../../bindings-node/index.js'

export const CHARTER_URI = 'kb://acme/charte-reponse'
export const SHEET_TEMPLATE = 'kb://acme/fiches/{slug}'
export const TONES = ['formel', 'chaleureux']

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

const sheetUri = (slug) => `kb://acme/fiches/${slug}`
const markdown = (s) => `# ${s.title}\n\n${s.body}\n`

export function createKbApp() {
  const server = new ServerMachine({
    serverInfo: { name: 'acme-kb', title: 'Base de connaissances support — Acme Assurances', version: '1.0.0' },
    instructions: 'Lisez la charte (kb://acme/charte-reponse) avant de répondre ; les procédures sont sous kb://acme/fiches/{slug}.',
  })
  server.addResource(
    { uri: CHARTER_URI, name: 'charte-reponse', title: 'Charte de réponse', description: 'Ton, formulations et engagements de toute réponse', mimeType: 'text/markdown' },
    [{ uri: CHARTER_URI, mimeType: 'text/markdown', text: CHARTER }],
    { ttlMs: 3_600_000, cacheScope: 'public' },
  )
  // The template's list: every existing sheet is a listed resource whose reads come to us.
  for (const [slug, s] of Object.entries(SHEETS)) {
    server.addResource({ uri: sheetUri(slug), name: slug, title: s.title, description: `Fiche procédure : ${s.title}`, mimeType: 'text/markdown' })
  }
  server.addTemplate(
    { uriTemplate: SHEET_TEMPLATE, name: 'fiche', title: 'Fiche procédure', description: 'Une fiche procédure par slug', mimeType: 'text/markdown' },
    { ttlMs: 60_000, cacheScope: 'public' },
    { slug: Object.keys(SHEETS) },
  )
  server.addPrompt(
    {
      name: 'repondre_ticket', title: 'Répondre à un ticket',
      description: 'Rédiger la réponse à un ticket dans le respect de la charte',
      arguments: [
        { name: 'ticketId', description: 'Identifiant du ticket', required: true },
        { name: 'ton', description: 'formel ou chaleureux (défaut : formel)', required: false },
      ],
    },
    { ton: TONES },
  )
  return { server, onEvent }
}

function onEvent(server, e) {
  if (e.type === 'readResource') return read(server, e)
  if (e.type === 'getPrompt') return prompt(server, e)
  if (e.type === 'complete') return server.respondCompletion(e.handle, [])
  return undefined
}

function read(server, e) {
  const slug = e.target === 'template' ? e.variables.slug : e.uri.slice(sheetUri('').length)
  const sheet = Object.hasOwn(SHEETS, slug) ? SHEETS[slug] : undefined
  // A missing sheet is an error the user sees (-32602 with data.uri), never empty contents.
  if (!sheet) return server.fail(e.handle, { kind: 'notFound' })
  return server.respondRead(e.handle, [{ uri: e.uri, mimeType: 'text/markdown', text: markdown(sheet) }])
}

function prompt(server, e) {
  const { ticketId } = e.arguments
  const ton = e.arguments.ton ?? 'formel'
  if (!TONES.includes(ton)) {
    return server.fail(e.handle, { kind: 'invalidParams', message: `ton must be formel or chaleureux, not '${ton}'` })
  }
  const instruction = [
    `Lisez le ticket ${ticketId} et rédigez la réponse au client sur un ton ${ton}, dans le respect de la charte ci-dessus.`,
    'Ne promettez aucun délai qui ne figure pas dans la charte.',
    'Terminez par une checklist des actions à mener (cases à cocher « - [ ] »).',
  ].join('\n')
  return server.respondPrompt(e.handle, {
    description: `Réponse au ticket ${ticketId} (${ton})`,
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: CHARTER_URI, mimeType: 'text/markdown', text: CHARTER } } },
      { role: 'user', content: { type: 'text', text: instruction } },
    ],
  })
}

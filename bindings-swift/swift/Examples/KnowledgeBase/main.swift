// mcp-kb-server: the support knowledge base of a fictional insurer (Acme Assurances) on
// `MCPServerHost`, over stdio — the same server as examples/node/kb.mjs:
//   kb://acme/charte-reponse    the reply charter (tone, phrasings, commitments), markdown
//   kb://acme/fiches/{slug}     procedure sheets: each existing sheet is listed; `slug` is
//                               completed by prefix; a missing sheet is a read error
//   repondre_ticket             prompt: ticketId (required), ton (formel | chaleureux)
// Registered as the Rust, Python and Node knowledge bases do (the sheets are the host's own
// listing, after the charter, in their order), so tests/kb-script/script.py gets the same
// answers from all of them.
import Foundation
import MCPContext

let charterURI = "kb://acme/charte-reponse"
let tones = ["formel", "chaleureux"]
let charter = """
# Charte de réponse — Acme Assurances

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

"""
let sheets: [(slug: String, title: String, body: String)] = [
    ("attestation-assurance", "Obtenir une attestation d’assurance",
     "1. Espace client > Mes contrats.\n2. Choisir le contrat, puis « Attestation ».\n3. Le PDF est disponible immédiatement."),
    ("changement-adresse", "Changer d’adresse",
     "1. Demander la nouvelle adresse et la date d’effet.\n2. Mettre à jour la fiche client.\n3. Vérifier l’impact sur la prime habitation."),
    ("declarer-sinistre-auto", "Déclarer un sinistre automobile",
     "1. Recueillir le constat amiable (recto et verso).\n2. Ouvrir le dossier sinistre sous 5 jours ouvrés.\n3. Missionner un expert si les dégâts dépassent 1 500 €."),
    ("declarer-degat-des-eaux", "Déclarer un dégât des eaux",
     "1. Demander photos et facture de recherche de fuite.\n2. Ouvrir le dossier sous 5 jours ouvrés.\n3. Convention IRSI : identifier l’assureur gestionnaire."),
    ("resiliation-contrat", "Résilier un contrat",
     "1. Vérifier l’échéance et le motif (loi Hamon, Chatel, changement de situation).\n2. Confirmer par écrit la date d’effet.\n3. Rembourser le prorata de prime."),
]

let host = try MCPServerHost(
    name: "acme-kb", version: "1.0.0", title: "Base de connaissances support — Acme Assurances",
    instructions: "Lisez la charte (kb://acme/charte-reponse) avant de répondre ; les procédures sont sous kb://acme/fiches/{slug}.",
    configure: { $0.dynamicResources = true })

try await host.resource(
    charterURI, name: "charte-reponse", title: "Charte de réponse",
    description: "Ton, formulations et engagements de toute réponse", mimeType: "text/markdown",
    contents: [.text(uri: charterURI, mimeType: "text/markdown", text: charter)],
    cache: CacheHint(ttlMs: 3_600_000, scope: .public))

try await host.resource(
    "kb://acme/fiches/{slug}", name: "fiche", title: "Fiche procédure",
    description: "Une fiche procédure par slug", mimeType: "text/markdown",
    cache: CacheHint(ttlMs: 60_000, scope: .public), completions: ["slug": sheets.map(\.slug)]
) { uri, variables in
    // A missing sheet is an error the user sees (-32602 with data.uri), never empty contents.
    guard let sheet = sheets.first(where: { $0.slug == variables["slug"] }) else { throw MCPHandlerError.notFound }
    return [.text(uri: uri, mimeType: "text/markdown", text: "# \(sheet.title)\n\n\(sheet.body)\n")]
}

// The sheets, listed after the charter in their own order (one page).
let sheetListing = sheets.map {
    Resource(uri: "kb://acme/fiches/\($0.slug)", name: $0.slug, title: $0.title,
             description: "Fiche procédure : \($0.title)", mimeType: "text/markdown")
}
await host.listResources { _ in (sheetListing, nil) }

try await host.prompt(
    "repondre_ticket", title: "Répondre à un ticket",
    description: "Rédiger la réponse à un ticket dans le respect de la charte",
    arguments: [
        PromptArgument(name: "ticketId", description: "Identifiant du ticket", required: true),
        PromptArgument(name: "ton", description: "formel ou chaleureux (défaut : formel)", required: false),
    ],
    completions: ["ton": tones]
) { arguments in
    let ticket = arguments["ticketId"] ?? ""
    let ton = arguments["ton"] ?? "formel"
    guard tones.contains(ton) else { throw MCPHandlerError.invalidParams("ton must be formel or chaleureux, not '\(ton)'") }
    let instruction = """
        Lisez le ticket \(ticket) et rédigez la réponse au client sur un ton \(ton), dans le respect de la charte ci-dessus.
        Ne promettez aucun délai qui ne figure pas dans la charte.
        Terminez par une checklist des actions à mener (cases à cocher « - [ ] »).
        """
    return Wire.GetPromptResult(
        description: "Réponse au ticket \(ticket) (\(ton))",
        messages: [
            Wire.PromptMessage(role: "user", content: .resource(Wire.ResourceContents(uri: charterURI, mimeType: "text/markdown", text: charter))),
            Wire.PromptMessage(role: "user", content: .text(instruction)),
        ])
}

await host.runStdio()

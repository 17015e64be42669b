//! The support knowledge base of a fictional insurer (Acme Assurances) on `mcp-context-primitives-host`:
//! the same server as `examples/node/kb.mjs`, `examples/python/kb_server.py` and the Swift
//! `KnowledgeBase` example.
//!
//! ```text
//! kb://acme/charte-reponse    the reply charter (tone, phrasings, commitments), markdown
//! kb://acme/fiches/{slug}     procedure sheets: each listed, `slug` completed by prefix,
//!                             a missing sheet is a read error (-32602 with data.uri)
//! repondre_ticket             prompt: ticketId (required), ton (formel | chaleureux)
//! ```
//!
//! Run: `kb-server` (stdio) or `kb-server --http PORT` (prints `listening http://…/mcp`).

use mcp_context::messages::Role;
use mcp_context::messages::owned::{
    OwnedContentBlock, OwnedGetPromptResult, OwnedImplementation, OwnedPrompt, OwnedPromptArgument,
    OwnedPromptMessage, OwnedResource, OwnedResourceContents, OwnedResourceTemplate,
};
use mcp_context::server::{CacheHint, PromptEntry, ServerConfig, TemplateEntry};
use mcp_context_host::{App, Context, Error, ListPage, ListRequest, PromptRequest, ReadRequest};

const CHARTER_URI: &str = "kb://acme/charte-reponse";
const SHEET_TEMPLATE: &str = "kb://acme/fiches/{slug}";
const MARKDOWN: Option<&str> = Some("text/markdown");
const TONES: [&str; 2] = ["formel", "chaleureux"];

const CHARTER: &str = "# Charte de réponse — Acme Assurances

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
";

/// (slug, title, body), in listing order.
const SHEETS: [(&str, &str, &str); 5] = [
    (
        "attestation-assurance",
        "Obtenir une attestation d’assurance",
        "1. Espace client > Mes contrats.\n2. Choisir le contrat, puis « Attestation ».\n3. Le PDF est disponible immédiatement.",
    ),
    (
        "changement-adresse",
        "Changer d’adresse",
        "1. Demander la nouvelle adresse et la date d’effet.\n2. Mettre à jour la fiche client.\n3. Vérifier l’impact sur la prime habitation.",
    ),
    (
        "declarer-sinistre-auto",
        "Déclarer un sinistre automobile",
        "1. Recueillir le constat amiable (recto et verso).\n2. Ouvrir le dossier sinistre sous 5 jours ouvrés.\n3. Missionner un expert si les dégâts dépassent 1 500 €.",
    ),
    (
        "declarer-degat-des-eaux",
        "Déclarer un dégât des eaux",
        "1. Demander photos et facture de recherche de fuite.\n2. Ouvrir le dossier sous 5 jours ouvrés.\n3. Convention IRSI : identifier l’assureur gestionnaire.",
    ),
    (
        "resiliation-contrat",
        "Résilier un contrat",
        "1. Vérifier l’échéance et le motif (loi Hamon, Chatel, changement de situation).\n2. Confirmer par écrit la date d’effet.\n3. Rembourser le prorata de prime.",
    ),
];

fn sheet_listing() -> Vec<OwnedResource> {
    SHEETS
        .iter()
        .map(|(slug, title, _)| OwnedResource {
            title: Some((*title).into()),
            description: Some(format!("Fiche procédure : {title}")),
            mime_type: MARKDOWN.map(Into::into),
            ..OwnedResource::new(format!("kb://acme/fiches/{slug}"), *slug)
        })
        .collect()
}

async fn read_sheet(req: ReadRequest, _cx: Context) -> Result<OwnedResourceContents, Error> {
    let slug = req.var("slug").ok_or(Error::not_found())?;
    let (_, title, body) = SHEETS
        .iter()
        .find(|(s, _, _)| *s == slug)
        .ok_or(Error::not_found())?;
    // One allocation of the exact size (`format!` grows its string as it goes).
    let text = ["# ", title, "\n\n", body, "\n"].concat();
    Ok(OwnedResourceContents::text(&req.uri, MARKDOWN, text))
}

async fn repondre_ticket(p: PromptRequest, _cx: Context) -> Result<OwnedGetPromptResult, Error> {
    let ticket = p.arg("ticketId").unwrap_or_default().to_owned();
    let ton = p.arg("ton").unwrap_or("formel").to_owned();
    if !TONES.contains(&ton.as_str()) {
        return Err(Error::invalid_params(format!(
            "ton must be formel or chaleureux, not '{ton}'"
        )));
    }
    let user = |content| OwnedPromptMessage {
        role: Role::User,
        content,
    };
    let charter = OwnedContentBlock::Resource {
        resource: OwnedResourceContents::text(CHARTER_URI, MARKDOWN, CHARTER),
        annotations: None,
    };
    let text = format!(
        "Lisez le ticket {ticket} et rédigez la réponse au client sur un ton {ton}, dans le respect de la charte ci-dessus.\n\
         Ne promettez aucun délai qui ne figure pas dans la charte.\n\
         Terminez par une checklist des actions à mener (cases à cocher « - [ ] »)."
    );
    Ok(OwnedGetPromptResult {
        description: Some(format!("Réponse au ticket {ticket} ({ton})")),
        messages: vec![
            user(charter),
            user(OwnedContentBlock::Text {
                text,
                annotations: None,
            }),
        ],
        server_info: None,
    })
}

/// The knowledge base, ready to serve.
fn app() -> App {
    let mut app = App::with_config(ServerConfig {
        server_info: Some(OwnedImplementation {
            title: Some("Base de connaissances support — Acme Assurances".into()),
            ..OwnedImplementation::new("acme-kb", "1.0.0")
        }),
        instructions: Some(
            "Lisez la charte (kb://acme/charte-reponse) avant de répondre ; les procédures sont sous kb://acme/fiches/{slug}."
                .into(),
        ),
        ..ServerConfig::default()
    });
    app.static_resource(
        OwnedResource {
            title: Some("Charte de réponse".into()),
            description: Some("Ton, formulations et engagements de toute réponse".into()),
            mime_type: MARKDOWN.map(Into::into),
            ..OwnedResource::new(CHARTER_URI, "charte-reponse")
        },
        vec![OwnedResourceContents::text(CHARTER_URI, MARKDOWN, CHARTER)],
        Some(CacheHint::public(3_600_000)),
    );
    let slugs = SHEETS.iter().map(|(s, _, _)| (*s).to_owned()).collect();
    app.template_entry(
        TemplateEntry {
            template: OwnedResourceTemplate {
                title: Some("Fiche procédure".into()),
                description: Some("Une fiche procédure par slug".into()),
                mime_type: MARKDOWN.map(Into::into),
                ..OwnedResourceTemplate::new(SHEET_TEMPLATE, "fiche")
            },
            cache: Some(CacheHint::public(60_000)),
            completions: vec![("slug".into(), slugs)],
        },
        read_sheet,
    );
    app.list_resources(|_: ListRequest, _cx: Context| async {
        Ok(ListPage {
            resources: sheet_listing(),
            next_cursor: None,
        })
    });
    let argument = |name: &str, description: &str, required: bool| OwnedPromptArgument {
        name: name.into(),
        title: None,
        description: Some(description.into()),
        required: Some(required),
    };
    app.prompt_entry(
        PromptEntry {
            prompt: OwnedPrompt {
                name: "repondre_ticket".into(),
                title: Some("Répondre à un ticket".into()),
                description: Some(
                    "Rédiger la réponse à un ticket dans le respect de la charte".into(),
                ),
                arguments: vec![
                    argument("ticketId", "Identifiant du ticket", true),
                    argument("ton", "formel ou chaleureux (défaut : formel)", false),
                ],
                ..OwnedPrompt::default()
            },
            completions: vec![("ton".into(), TONES.map(String::from).to_vec())],
        },
        repondre_ticket,
    );
    app
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(at) = args.iter().position(|a| a == "--http") else {
        return mcp_context_host::serve_stdio(app()).await;
    };
    let port: u16 = args.get(at + 1).and_then(|p| p.parse().ok()).unwrap_or(0);
    let host = app().build().map_err(std::io::Error::other)?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening http://{}/mcp", listener.local_addr()?);
    host.serve_http(listener, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

"""The data of the knowledge-base server (examples/python/kb_server.py): the reply charter of a
fictional insurer and its procedure sheets, as in examples/node/kb.mjs."""

CHARTER = """# Charte de réponse — Acme Assurances

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

SHEETS = {
    "attestation-assurance": {
        "title": "Obtenir une attestation d’assurance",
        "body": "1. Espace client > Mes contrats.\n2. Choisir le contrat, puis « Attestation ».\n3. Le PDF est disponible immédiatement.",
    },
    "changement-adresse": {
        "title": "Changer d’adresse",
        "body": "1. Demander la nouvelle adresse et la date d’effet.\n2. Mettre à jour la fiche client.\n3. Vérifier l’impact sur la prime habitation.",
    },
    "declarer-sinistre-auto": {
        "title": "Déclarer un sinistre automobile",
        "body": "1. Recueillir le constat amiable (recto et verso).\n2. Ouvrir le dossier sinistre sous 5 jours ouvrés.\n3. Missionner un expert si les dégâts dépassent 1 500 €.",
    },
    "declarer-degat-des-eaux": {
        "title": "Déclarer un dégât des eaux",
        "body": "1. Demander photos et facture de recherche de fuite.\n2. Ouvrir le dossier sous 5 jours ouvrés.\n3. Convention IRSI : identifier l’assureur gestionnaire.",
    },
    "resiliation-contrat": {
        "title": "Résilier un contrat",
        "body": "1. Vérifier l’échéance et le motif (loi Hamon, Chatel, changement de situation).\n2. Confirmer par écrit la date d’effet.\n3. Rembourser le prorata de prime.",
    },
}

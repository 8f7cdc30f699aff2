import { type LanguageCode, resolveLanguage } from './languages.js';
import type { OfflineIntent } from './types.js';

/** The words of the offline advisor in one language. */
export interface OfflineStrings {
  readonly notice: string;
  /** Says, in the language, which parts of the answer stay English (empty for English). */
  readonly inEnglish: string;
  readonly titles: Record<OfflineIntent, string>;
  readonly help: string;
  readonly nothingFound: string;
  readonly nothingToShow: string;
  readonly noImport: string;
  readonly importPending: string;
  readonly unavailable: (tool: string) => string;
  readonly failed: (tool: string) => string;
  /** The labels of the X-ray answer (issue 38). */
  readonly xray: XrayStrings;
}

/** The labels of the offline X-ray answer, one language. */
export interface XrayStrings {
  /** Heading of the table of the EUR share per verdict band. */
  readonly bands: string;
  readonly weightedScore: string;
  readonly pastSellTrigger: string;
  /** Holdings whose evaluation is filled in the background. */
  readonly pending: string;
  /** Holdings without an EUR value. */
  readonly unvalued: string;
  /** An empty list. */
  readonly none: string;
  /** No active portfolio and several: which one to X-ray. */
  readonly choosePortfolio: string;
}

const EN: OfflineStrings = {
  notice: 'No AI model is configured, so I answer with fixed rules from your data.',
  inEnglish: '',
  titles: {
    import: 'Import',
    holdings: 'Holdings',
    cash: 'Cash',
    evaluate: 'Moat evaluation',
    reports: 'Saved reports',
    portfolios: 'Portfolios',
    xray: 'Moat X-ray',
  },
  help: [
    'Without a model I can answer these asks:',
    '- "What do I hold?" (your holdings)',
    '- "How is my cash?" (your cash positions)',
    '- "How is AAPL rated?" (a moat evaluation of a symbol)',
    '- "Import this file" with a broker export attached (a proposed import)',
    '- "List my reports" (your saved moat reports)',
    '- "Which of my holdings have a moat?" (the moat X-ray of your portfolio: verdicts, sell trigger, where your money sits)',
  ].join('\n'),
  nothingFound: 'Nothing found.',
  nothingToShow: 'Nothing to show.',
  noImport: 'No import could be prepared from that file.',
  importPending: 'Nothing is imported until you accept the proposal.',
  unavailable: (tool) => `I can't do that here: the ${tool} tool is not available.`,
  failed: (tool) => `I don't have that information: the ${tool} tool failed.`,
  xray: {
    bands: 'Share of the money per verdict',
    weightedScore: 'Value-weighted moat score',
    pastSellTrigger: 'Past the sell trigger',
    pending: 'Not evaluated yet (being filled in the background; ask again later)',
    unvalued: 'Without a value in EUR',
    none: 'none',
    choosePortfolio:
      'You have several portfolios: choose one in the app (the active portfolio) and ask again.',
  },
};

const DE: OfflineStrings = {
  notice: 'Es ist kein KI-Modell eingerichtet; ich antworte mit festen Regeln aus deinen Daten.',
  inEnglish:
    'Die Spaltenköpfe sind die Feldnamen der Daten; Namen, Urteile und Vorschlagstexte aus den Daten bleiben auf Englisch.',
  titles: {
    import: 'Import',
    holdings: 'Bestand',
    cash: 'Bargeld',
    evaluate: 'Burggraben-Bewertung',
    reports: 'Gespeicherte Berichte',
    portfolios: 'Portfolios',
    xray: 'Burggraben-Röntgenbild',
  },
  help: [
    'Ohne Modell kann ich diese Fragen beantworten:',
    '- "Was halte ich?" (dein Bestand)',
    '- "Wie viel Bargeld habe ich?" (deine Bargeldpositionen)',
    '- "Wie ist AAPL bewertet?" (die Burggraben-Bewertung eines Symbols)',
    '- "Importiere diese Datei" mit angehängtem Broker-Export (ein vorgeschlagener Import)',
    '- "Zeige meine Berichte" (deine gespeicherten Berichte)',
    '- "Welche meiner Positionen haben einen Burggraben?" (das Burggraben-Röntgenbild deines Portfolios: Urteile, Verkaufssignal, wo dein Geld steckt)',
  ].join('\n'),
  nothingFound: 'Nichts gefunden.',
  nothingToShow: 'Nichts anzuzeigen.',
  noImport: 'Aus dieser Datei ließ sich kein Import vorbereiten.',
  importPending: 'Nichts wird importiert, bevor du den Vorschlag annimmst.',
  unavailable: (tool) => `Das geht hier nicht: das Werkzeug ${tool} ist nicht verfügbar.`,
  failed: (tool) => `Dazu habe ich keine Angaben: das Werkzeug ${tool} ist fehlgeschlagen.`,
  xray: {
    bands: 'Anteil des Geldes je Urteil',
    weightedScore: 'Wertgewichtete Burggraben-Punktzahl',
    pastSellTrigger: 'Über dem Verkaufssignal',
    pending: 'Noch nicht bewertet (wird im Hintergrund ergänzt; frag später noch einmal)',
    unvalued: 'Ohne Wert in EUR',
    none: 'keine',
    choosePortfolio:
      'Du hast mehrere Portfolios: wähle eines in der App (das aktive Portfolio) und frag noch einmal.',
  },
};

const FR: OfflineStrings = {
  notice:
    'Aucun modèle d’IA n’est configuré : je réponds avec des règles fixes à partir de tes données.',
  inEnglish:
    'Les en-têtes des tableaux sont les noms des champs des données ; les noms, verdicts et textes de proposition issus des données restent en anglais.',
  titles: {
    import: 'Importation',
    holdings: 'Positions',
    cash: 'Liquidités',
    evaluate: 'Évaluation de l’avantage concurrentiel',
    reports: 'Rapports enregistrés',
    portfolios: 'Portefeuilles',
    xray: 'Radiographie de l’avantage concurrentiel',
  },
  help: [
    'Sans modèle, je peux répondre à ces demandes :',
    '- « Qu’est-ce que je détiens ? » (tes positions)',
    '- « Quelles sont mes liquidités ? » (tes positions de liquidités)',
    '- « Comment AAPL est-elle évaluée ? » (l’évaluation de l’avantage concurrentiel d’un symbole)',
    '- « Importe ce fichier » avec un export de courtier joint (une importation proposée)',
    '- « Liste mes rapports » (tes rapports enregistrés)',
    '- « Lesquelles de mes positions ont un avantage concurrentiel ? » (la radiographie de ton portefeuille : verdicts, seuil de vente, où se trouve ton argent)',
  ].join('\n'),
  nothingFound: 'Rien trouvé.',
  nothingToShow: 'Rien à afficher.',
  noImport: 'Aucune importation n’a pu être préparée à partir de ce fichier.',
  importPending: 'Rien n’est importé tant que tu n’acceptes pas la proposition.',
  unavailable: (tool) => `Je ne peux pas le faire ici : l’outil ${tool} n’est pas disponible.`,
  failed: (tool) => `Je n’ai pas cette information : l’outil ${tool} a échoué.`,
  xray: {
    bands: 'Part de l’argent par verdict',
    weightedScore: 'Score d’avantage concurrentiel pondéré par la valeur',
    pastSellTrigger: 'Au-delà du seuil de vente',
    pending: 'Pas encore évaluées (complétées en arrière-plan ; redemande plus tard)',
    unvalued: 'Sans valeur en EUR',
    none: 'aucune',
    choosePortfolio:
      'Tu as plusieurs portefeuilles : choisis-en un dans l’application (le portefeuille actif) et redemande.',
  },
};

const ES: OfflineStrings = {
  notice:
    'No hay ningún modelo de IA configurado: respondo con reglas fijas a partir de tus datos.',
  inEnglish:
    'Los encabezados de las tablas son los nombres de los campos de los datos; los nombres, veredictos y textos de propuesta de los datos siguen en inglés.',
  titles: {
    import: 'Importación',
    holdings: 'Posiciones',
    cash: 'Efectivo',
    evaluate: 'Evaluación de la ventaja competitiva',
    reports: 'Informes guardados',
    portfolios: 'Carteras',
    xray: 'Radiografía de la ventaja competitiva',
  },
  help: [
    'Sin modelo puedo responder a estas preguntas:',
    '- «¿Qué tengo?» (tus posiciones)',
    '- «¿Cuánto efectivo tengo?» (tus posiciones de efectivo)',
    '- «¿Cómo se evalúa AAPL?» (la evaluación de la ventaja competitiva de un símbolo)',
    '- «Importa este archivo» con una exportación del bróker adjunta (una importación propuesta)',
    '- «Muestra mis informes» (tus informes guardados)',
    '- «¿Cuáles de mis posiciones tienen ventaja competitiva?» (la radiografía de tu cartera: veredictos, señal de venta, dónde está tu dinero)',
  ].join('\n'),
  nothingFound: 'No se encontró nada.',
  nothingToShow: 'Nada que mostrar.',
  noImport: 'No se pudo preparar ninguna importación a partir de ese archivo.',
  importPending: 'No se importa nada hasta que aceptes la propuesta.',
  unavailable: (tool) => `Aquí no puedo hacerlo: la herramienta ${tool} no está disponible.`,
  failed: (tool) => `No tengo esa información: la herramienta ${tool} ha fallado.`,
  xray: {
    bands: 'Parte del dinero por veredicto',
    weightedScore: 'Puntuación de ventaja competitiva ponderada por valor',
    pastSellTrigger: 'Por encima de la señal de venta',
    pending: 'Aún sin evaluar (se completan en segundo plano; vuelve a preguntar más tarde)',
    unvalued: 'Sin valor en EUR',
    none: 'ninguna',
    choosePortfolio:
      'Tienes varias carteras: elige una en la aplicación (la cartera activa) y vuelve a preguntar.',
  },
};

const IT: OfflineStrings = {
  notice: 'Nessun modello di IA è configurato: rispondo con regole fisse a partire dai tuoi dati.',
  inEnglish:
    'Le intestazioni delle tabelle sono i nomi dei campi dei dati; nomi, giudizi e testi delle proposte provenienti dai dati restano in inglese.',
  titles: {
    import: 'Importazione',
    holdings: 'Posizioni',
    cash: 'Liquidità',
    evaluate: 'Valutazione del vantaggio competitivo',
    reports: 'Rapporti salvati',
    portfolios: 'Portafogli',
    xray: 'Radiografia del vantaggio competitivo',
  },
  help: [
    'Senza modello posso rispondere a queste domande:',
    '- «Cosa possiedo?» (le tue posizioni)',
    '- «Quanta liquidità ho?» (le tue posizioni di liquidità)',
    '- «Come è valutata AAPL?» (la valutazione del vantaggio competitivo di un simbolo)',
    '- «Importa questo file» con un export del broker allegato (un’importazione proposta)',
    '- «Mostra i miei rapporti» (i tuoi rapporti salvati)',
    '- «Quali delle mie posizioni hanno un vantaggio competitivo?» (la radiografia del tuo portafoglio: giudizi, segnale di vendita, dove sono i tuoi soldi)',
  ].join('\n'),
  nothingFound: 'Non ho trovato nulla.',
  nothingToShow: 'Niente da mostrare.',
  noImport: 'Da quel file non è stato possibile preparare alcuna importazione.',
  importPending: 'Non viene importato nulla finché non accetti la proposta.',
  unavailable: (tool) => `Qui non posso farlo: lo strumento ${tool} non è disponibile.`,
  failed: (tool) => `Non ho questa informazione: lo strumento ${tool} non è riuscito.`,
  xray: {
    bands: 'Quota del denaro per giudizio',
    weightedScore: 'Punteggio del vantaggio competitivo ponderato per valore',
    pastSellTrigger: 'Oltre il segnale di vendita',
    pending: 'Non ancora valutate (completate in background; chiedi di nuovo più tardi)',
    unvalued: 'Senza valore in EUR',
    none: 'nessuna',
    choosePortfolio:
      'Hai più portafogli: scegline uno nell’app (il portafoglio attivo) e chiedi di nuovo.',
  },
};

const NL: OfflineStrings = {
  notice: 'Er is geen AI-model ingesteld; ik antwoord met vaste regels op basis van je gegevens.',
  inEnglish:
    'De kolomkoppen zijn de veldnamen van de gegevens; namen, oordelen en voorsteltekst uit de gegevens blijven in het Engels.',
  titles: {
    import: 'Import',
    holdings: 'Posities',
    cash: 'Contanten',
    evaluate: 'Beoordeling van het concurrentievoordeel',
    reports: 'Opgeslagen rapporten',
    portfolios: 'Portefeuilles',
    xray: 'Doorlichting van het concurrentievoordeel',
  },
  help: [
    'Zonder model kan ik deze vragen beantwoorden:',
    '- "Wat bezit ik?" (je posities)',
    '- "Hoeveel contanten heb ik?" (je contante posities)',
    '- "Hoe wordt AAPL beoordeeld?" (de beoordeling van het concurrentievoordeel van een symbool)',
    '- "Importeer dit bestand" met een bijgevoegde export van je broker (een voorgestelde import)',
    '- "Toon mijn rapporten" (je opgeslagen rapporten)',
    '- "Welke van mijn posities hebben een concurrentievoordeel?" (de doorlichting van je portefeuille: oordelen, verkoopsignaal, waar je geld zit)',
  ].join('\n'),
  nothingFound: 'Niets gevonden.',
  nothingToShow: 'Niets om te tonen.',
  noImport: 'Uit dat bestand kon geen import worden voorbereid.',
  importPending: 'Er wordt niets geïmporteerd voordat je het voorstel accepteert.',
  unavailable: (tool) => `Dat kan hier niet: het hulpmiddel ${tool} is niet beschikbaar.`,
  failed: (tool) => `Die informatie heb ik niet: het hulpmiddel ${tool} is mislukt.`,
  xray: {
    bands: 'Aandeel van het geld per oordeel',
    weightedScore: 'Naar waarde gewogen score van het concurrentievoordeel',
    pastSellTrigger: 'Voorbij het verkoopsignaal',
    pending: 'Nog niet beoordeeld (wordt op de achtergrond aangevuld; vraag het later opnieuw)',
    unvalued: 'Zonder waarde in EUR',
    none: 'geen',
    choosePortfolio:
      'Je hebt meerdere portefeuilles: kies er een in de app (de actieve portefeuille) en vraag het opnieuw.',
  },
};

const PT: OfflineStrings = {
  notice:
    'Não há nenhum modelo de IA configurado: respondo com regras fixas a partir dos teus dados.',
  inEnglish:
    'Os cabeçalhos das tabelas são os nomes dos campos dos dados; nomes, veredictos e textos de proposta vindos dos dados ficam em inglês.',
  titles: {
    import: 'Importação',
    holdings: 'Posições',
    cash: 'Dinheiro',
    evaluate: 'Avaliação da vantagem competitiva',
    reports: 'Relatórios guardados',
    portfolios: 'Carteiras',
    xray: 'Radiografia da vantagem competitiva',
  },
  help: [
    'Sem modelo consigo responder a estas perguntas:',
    '- «O que é que tenho?» (as tuas posições)',
    '- «Quanto dinheiro tenho?» (as tuas posições de dinheiro)',
    '- «Como é avaliada a AAPL?» (a avaliação da vantagem competitiva de um símbolo)',
    '- «Importa este ficheiro» com uma exportação da corretora anexada (uma importação proposta)',
    '- «Mostra os meus relatórios» (os teus relatórios guardados)',
    '- «Quais das minhas posições têm vantagem competitiva?» (a radiografia da tua carteira: veredictos, sinal de venda, onde está o teu dinheiro)',
  ].join('\n'),
  nothingFound: 'Nada encontrado.',
  nothingToShow: 'Nada para mostrar.',
  noImport: 'Não foi possível preparar nenhuma importação a partir desse ficheiro.',
  importPending: 'Nada é importado até aceitares a proposta.',
  unavailable: (tool) => `Não consigo fazer isso aqui: a ferramenta ${tool} não está disponível.`,
  failed: (tool) => `Não tenho essa informação: a ferramenta ${tool} falhou.`,
  xray: {
    bands: 'Parte do dinheiro por veredicto',
    weightedScore: 'Pontuação da vantagem competitiva ponderada pelo valor',
    pastSellTrigger: 'Acima do sinal de venda',
    pending: 'Ainda não avaliadas (completadas em segundo plano; pergunta de novo mais tarde)',
    unvalued: 'Sem valor em EUR',
    none: 'nenhuma',
    choosePortfolio:
      'Tens várias carteiras: escolhe uma na aplicação (a carteira ativa) e pergunta de novo.',
  },
};

/** The offline advisor's words in every supported language. */
export const OFFLINE_STRINGS: Readonly<Record<LanguageCode, OfflineStrings>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  it: IT,
  nl: NL,
  pt: PT,
};

/**
 * Common words of a question in each language besides English (function words and the offline
 * asks' words), for a request that names no language.
 */
const QUESTION_WORDS: Readonly<Record<Exclude<LanguageCode, 'en'>, RegExp>> = {
  de: /(?<![\p{L}])(?:was|wie|ich|halte|habe|mein|meine|meinem|und|ist|bewertet|bewertung|bestand|welche|zeige|bitte|wird|meiner|haben|einen|burggraben|positionen|geld)(?![\p{L}])/giu,
  fr: /(?<![\p{L}])(?:je|j|mes|mon|ma|est|les|des|quel|quels|quelle|quelles|combien|comment|sont|ai|avec|pour|une|vous|qu|c|détiens|liquidités|rapports|évalue|évaluée|lesquelles|ont|où|argent)(?![\p{L}])/giu,
  es: /(?<![\p{L}])(?:qué|cuál|cuánto|cuánta|cuántos|cómo|tengo|mis|los|las|del|una|son|está|efectivo|informes|evalúa|evaluada|muestra|cuáles|tienen|dónde|dinero)(?![\p{L}])/giu,
  it: /(?<![\p{L}])(?:cosa|che|quanto|quanta|quanti|ho|miei|mie|mio|il|gli|della|delle|sono|è|possiedo|liquidità|rapporti|valutata|mostra|quali|hanno)(?![\p{L}])/giu,
  nl: /(?<![\p{L}])(?:wat|hoe|ik|mijn|heb|het|een|zijn|welke|hoeveel|bezit|contanten|rapporten|beoordeeld|toon)(?![\p{L}])/giu,
  pt: /(?<![\p{L}])(?:o|tenho|meus|minhas|meu|é|os|uma|são|quanto|quantos|dinheiro|relatórios|avaliada|mostra|posições|quais|têm)(?![\p{L}])/giu,
};

/**
 * The language of a question that names none: the language of {@link QUESTION_WORDS} with the
 * most matches, when it has at least two and more than any other; English otherwise.
 */
export function questionLanguage(ask: string): LanguageCode {
  let best: LanguageCode = 'en';
  let most = 1;
  let tie = false;
  for (const [code, words] of Object.entries(QUESTION_WORDS) as [LanguageCode, RegExp][]) {
    const n = (ask.match(words) ?? []).length;
    if (n > most) {
      best = code;
      most = n;
      tie = false;
    } else if (n === most && n > 1) {
      tie = true;
    }
  }
  return tie ? 'en' : best;
}

/**
 * The offline advisor's language: the request's `language` when it is a supported one (any other
 * tag: English), or — when the request named none — the question's language
 * ({@link questionLanguage}). Every language of `SUPPORTED_LANGUAGES` is written in full; what
 * comes from the data (column names, names, verdicts, proposal summaries) stays English and the
 * answer says so in the language (`inEnglish`).
 */
export function offlineStrings(language: string | undefined, ask: string): OfflineStrings {
  if (language !== undefined) return OFFLINE_STRINGS[resolveLanguage(language)?.code ?? 'en'];
  return OFFLINE_STRINGS[questionLanguage(ask)];
}

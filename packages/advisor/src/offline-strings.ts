import { resolveLanguage } from './languages.js';
import type { OfflineIntent } from './types.js';

/** The words of the offline advisor in one language. */
export interface OfflineStrings {
  readonly notice: string;
  readonly titles: Record<OfflineIntent, string>;
  readonly help: string;
  readonly nothingFound: string;
  readonly nothingToShow: string;
  readonly noImport: string;
  readonly importPending: string;
  readonly unavailable: (tool: string) => string;
  readonly failed: (tool: string) => string;
}

const EN: OfflineStrings = {
  notice: 'No AI model is configured, so I answer with fixed rules from your data.',
  titles: {
    import: 'Import',
    holdings: 'Holdings',
    cash: 'Cash',
    evaluate: 'Moat evaluation',
    reports: 'Saved reports',
    portfolios: 'Portfolios',
  },
  help: [
    'Without a model I can answer these asks:',
    '- "What do I hold?" (your holdings)',
    '- "How is my cash?" (your cash positions)',
    '- "How is AAPL rated?" (a moat evaluation of a symbol)',
    '- "Import this file" with a broker export attached (a proposed import)',
    '- "List my reports" (your saved moat reports)',
  ].join('\n'),
  nothingFound: 'Nothing found.',
  nothingToShow: 'Nothing to show.',
  noImport: 'No import could be prepared from that file.',
  importPending: 'Nothing is imported until you accept the proposal.',
  unavailable: (tool) => `I can't do that here: the ${tool} tool is not available.`,
  failed: (tool) => `I don't have that information: the ${tool} tool failed.`,
};

const DE: OfflineStrings = {
  notice: 'Es ist kein KI-Modell eingerichtet; ich antworte mit festen Regeln aus deinen Daten.',
  titles: {
    import: 'Import',
    holdings: 'Bestand',
    cash: 'Bargeld',
    evaluate: 'Burggraben-Bewertung',
    reports: 'Gespeicherte Berichte',
    portfolios: 'Portfolios',
  },
  help: [
    'Ohne Modell kann ich diese Fragen beantworten:',
    '- "Was halte ich?" (dein Bestand)',
    '- "Wie viel Bargeld habe ich?" (deine Bargeldpositionen)',
    '- "Wie ist AAPL bewertet?" (die Burggraben-Bewertung eines Symbols)',
    '- "Importiere diese Datei" mit angehängtem Broker-Export (ein vorgeschlagener Import)',
    '- "Zeige meine Berichte" (deine gespeicherten Berichte)',
  ].join('\n'),
  nothingFound: 'Nichts gefunden.',
  nothingToShow: 'Nichts anzuzeigen.',
  noImport: 'Aus dieser Datei ließ sich kein Import vorbereiten.',
  importPending: 'Nichts wird importiert, bevor du den Vorschlag annimmst.',
  unavailable: (tool) => `Das geht hier nicht: das Werkzeug ${tool} ist nicht verfügbar.`,
  failed: (tool) => `Dazu habe ich keine Angaben: das Werkzeug ${tool} ist fehlgeschlagen.`,
};

const GERMAN_WORDS =
  /(?<![\p{L}])(?:was|wie|ich|halte|habe|mein|meine|meinem|und|ist|bewertet|bewertung|bestand|welche|zeige|bitte|wird)(?![\p{L}])/giu;

/**
 * The offline advisor's language: German for a `de` tag, or — when the request named no
 * language — for a question that reads German (at least two common German words); English
 * otherwise. The offline rules are written in English and German only.
 */
export function offlineStrings(language: string | undefined, ask: string): OfflineStrings {
  if (language !== undefined) return resolveLanguage(language)?.code === 'de' ? DE : EN;
  return (ask.match(GERMAN_WORDS) ?? []).length >= 2 ? DE : EN;
}

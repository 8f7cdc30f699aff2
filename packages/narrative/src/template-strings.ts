import type { CriterionKey } from '@svc/schemas';

/** A language the template is written in: every language the AI answers are offered in. */
export type TemplateLanguage = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt';

/** The template languages, English first. */
export const TEMPLATE_LANGUAGES: readonly TemplateLanguage[] = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pt',
];

/** The words of one template language. */
export interface Strings {
  readonly decimal: '.' | ',';
  readonly percent: (n: string) => string;
  readonly summaryTitle: string;
  readonly scores: (
    who: string,
    score: string,
    max: string,
    pct: string,
    verdict: string,
  ) => string;
  readonly passes: (passed: number, scored: number) => string;
  readonly strengths: string;
  readonly risks: string;
  readonly noneStrong: string;
  readonly noneRisk: string;
  readonly notScored: string;
  readonly status: Record<'warning' | 'fail', string>;
  readonly valuation: string;
  readonly noValuation: string;
  readonly pe: string;
  readonly payout: string;
  readonly notAvailable: string;
  readonly sellTrigger: (on: boolean) => string;
  readonly whyMissing: string;
  readonly noReason: string;
  /** The day an evaluation as of a date was evaluated as of (issue 39). */
  readonly asOf: (day: string) => string;
  /** The data-quality section's heading, its first line, and a flag's label under a criterion. */
  readonly dataQuality: string;
  readonly dataQualityIntro: string;
  readonly dataQualityFlag: string;
  readonly disclaimer: string;
  /** Said of a piece of the evaluation's own text that is shown in English (none for `en`). */
  readonly inEnglish: string;
  /** The criterion names by key (the evaluation's `name` is English). */
  readonly criteria: Record<CriterionKey, string>;
  /** The verdict labels (`VERDICT_BANDS`, highest first). */
  readonly verdicts: readonly [string, string, string, string];
  /** A criterion's headline value (`numericValue`) in words, `n` formatted. */
  readonly headline: {
    readonly median: (n: string) => string;
    readonly perYear: (n: string) => string;
    readonly years: (n: string) => string;
    readonly ofNetIncome: (n: string) => string;
    readonly outOf100: (n: string) => string;
  };
}

/** The closing line of every English narrative (interface spec: informational use only). */
export const DISCLAIMER = 'Informational only, not financial advice.';

/** The closing line of every German narrative. */
export const DISCLAIMER_DE = 'Nur zur Information, keine Anlageberatung.';

const EN: Strings = {
  decimal: '.',
  percent: (n) => `${n}%`,
  summaryTitle: 'Summary',
  scores: (who, score, max, pct, verdict) =>
    `${who} scores ${score} out of ${max}${pct} on the moat framework. Verdict: **${verdict}**.`,
  passes: (passed, scored) => `${passed} of ${scored} scored criteria pass.`,
  strengths: 'Strengths',
  risks: 'Risks',
  noneStrong: 'No criterion passes.',
  noneRisk: 'No criterion fails or warns.',
  notScored: 'not scored',
  status: { warning: 'warning', fail: 'fail' },
  valuation: 'Valuation',
  noValuation: 'No valuation is available for this evaluation.',
  pe: 'P/E',
  payout: 'Augmented payout ratio',
  notAvailable: 'not available',
  sellTrigger: (on) => `Sell trigger (P/E ≥ 40): ${on ? 'yes, the P/E is 40 or more' : 'no'}`,
  whyMissing: 'Why some figures are missing or qualified:',
  noReason: 'No reason was recorded for the missing figures.',
  asOf: (day) => `Evaluated as of ${day}, on the figures filed by that day.`,
  dataQuality: 'Data quality',
  dataQualityIntro:
    'These figures were flagged; a criterion resting on a flagged series earns no points from the gap:',
  dataQualityFlag: 'data quality',
  disclaimer: DISCLAIMER,
  inEnglish: '',
  criteria: {
    earnings_consistency: 'Earnings consistency',
    gross_margin: 'Gross margin',
    net_margin: 'Net margin',
    retained_earnings: 'Retained earnings',
    return_on_invested_capital: 'Return on invested capital',
    debt_sustainability: 'Debt sustainability',
    capex_efficiency: 'Capex efficiency',
    product_durability: 'Product durability',
  },
  verdicts: [
    'Strong Durable Competitive Advantage',
    'Moderate Competitive Advantage',
    'Narrow Moat — Proceed with Caution',
    'No Clear Moat Detected',
  ],
  headline: {
    median: (n) => `median ${n}`,
    perYear: (n) => `${n} per year`,
    years: (n) => `${n} years of net income`,
    ofNetIncome: (n) => `${n} of net income`,
    outOf100: (n) => `${n} out of 100`,
  },
};

const DE: Strings = {
  decimal: ',',
  percent: (n) => `${n} %`,
  summaryTitle: 'Zusammenfassung',
  scores: (who, score, max, pct, verdict) =>
    `${who} erreicht ${score} von ${max} Punkten${pct} im Burggraben-Schema. Urteil: **${verdict}**.`,
  passes: (passed, scored) => `${passed} von ${scored} bewerteten Kriterien sind erfüllt.`,
  strengths: 'Stärken',
  risks: 'Risiken',
  noneStrong: 'Kein Kriterium ist erfüllt.',
  noneRisk: 'Kein Kriterium ist verfehlt oder mit Warnung.',
  notScored: 'nicht bewertet',
  status: { warning: 'Warnung', fail: 'nicht erfüllt' },
  valuation: 'Bewertung',
  noValuation: 'Für diese Auswertung liegt keine Bewertung vor.',
  pe: 'KGV',
  payout: 'Erweiterte Ausschüttungsquote',
  notAvailable: 'nicht verfügbar',
  sellTrigger: (on) =>
    `Verkaufssignal (KGV ≥ 40): ${on ? 'ja, das KGV liegt bei 40 oder darüber' : 'nein'}`,
  whyMissing: 'Warum einige Werte fehlen oder eingeschränkt sind (Hinweise auf Englisch):',
  noReason: 'Für die fehlenden Werte wurde kein Grund erfasst.',
  asOf: (day) => `Bewertet zum Stand ${day}, mit den bis dahin eingereichten Zahlen.`,
  dataQuality: 'Datenqualität',
  dataQualityIntro:
    'Diese Zahlen sind markiert; ein Kriterium, das auf einer markierten Reihe beruht, erhält für die Lücke keine Punkte:',
  dataQualityFlag: 'Datenqualität',
  disclaimer: DISCLAIMER_DE,
  inEnglish: 'Originaltext auf Englisch',
  criteria: {
    earnings_consistency: 'Gewinnkonstanz',
    gross_margin: 'Bruttomarge',
    net_margin: 'Nettomarge',
    retained_earnings: 'Einbehaltene Gewinne',
    return_on_invested_capital: 'Rendite auf das investierte Kapital',
    debt_sustainability: 'Tragfähigkeit der Schulden',
    capex_efficiency: 'Investitionseffizienz',
    product_durability: 'Beständigkeit der Produkte',
  },
  verdicts: [
    'Starker, dauerhafter Wettbewerbsvorteil',
    'Mäßiger Wettbewerbsvorteil',
    'Schmaler Burggraben — mit Vorsicht vorgehen',
    'Kein klarer Burggraben erkennbar',
  ],
  headline: {
    median: (n) => `Median ${n}`,
    perYear: (n) => `${n} pro Jahr`,
    years: (n) => `${n} Jahre des Nettogewinns`,
    ofNetIncome: (n) => `${n} des Nettogewinns`,
    outOf100: (n) => `${n} von 100`,
  },
};

const FR: Strings = {
  decimal: ',',
  percent: (n) => `${n} %`,
  summaryTitle: 'Résumé',
  scores: (who, score, max, pct, verdict) =>
    `${who} obtient ${score} sur ${max}${pct} selon la grille des avantages concurrentiels. Verdict : **${verdict}**.`,
  passes: (passed, scored) => `${passed} sur ${scored} critères notés sont remplis.`,
  strengths: 'Points forts',
  risks: 'Risques',
  noneStrong: 'Aucun critère n’est rempli.',
  noneRisk: 'Aucun critère n’échoue ni n’est en alerte.',
  notScored: 'non noté',
  status: { warning: 'alerte', fail: 'échec' },
  valuation: 'Valorisation',
  noValuation: 'Aucune valorisation n’est disponible pour cette évaluation.',
  pe: 'PER',
  payout: 'Taux de distribution élargi',
  notAvailable: 'non disponible',
  sellTrigger: (on) =>
    `Signal de vente (PER ≥ 40) : ${on ? 'oui, le PER est d’au moins 40' : 'non'}`,
  whyMissing: 'Pourquoi certains chiffres manquent ou sont nuancés (remarques en anglais) :',
  noReason: 'Aucune raison n’a été enregistrée pour les chiffres manquants.',
  asOf: (day) => `Évalué au ${day}, sur les chiffres déposés à cette date.`,
  dataQuality: 'Qualité des données',
  dataQualityIntro:
    'Ces chiffres sont signalés ; un critère qui repose sur une série signalée ne gagne aucun point grâce à la lacune :',
  dataQualityFlag: 'qualité des données',
  disclaimer: 'À titre d’information uniquement, pas un conseil financier.',
  inEnglish: 'texte d’origine en anglais',
  criteria: {
    earnings_consistency: 'Régularité des bénéfices',
    gross_margin: 'Marge brute',
    net_margin: 'Marge nette',
    retained_earnings: 'Bénéfices non distribués',
    return_on_invested_capital: 'Rentabilité des capitaux investis',
    debt_sustainability: 'Soutenabilité de la dette',
    capex_efficiency: 'Efficacité des investissements',
    product_durability: 'Durabilité des produits',
  },
  verdicts: [
    'Avantage concurrentiel fort et durable',
    'Avantage concurrentiel modéré',
    'Avantage étroit — prudence',
    'Aucun avantage concurrentiel clair',
  ],
  headline: {
    median: (n) => `médiane ${n}`,
    perYear: (n) => `${n} par an`,
    years: (n) => `${n} années de bénéfice net`,
    ofNetIncome: (n) => `${n} du bénéfice net`,
    outOf100: (n) => `${n} sur 100`,
  },
};

const ES: Strings = {
  decimal: ',',
  percent: (n) => `${n} %`,
  summaryTitle: 'Resumen',
  scores: (who, score, max, pct, verdict) =>
    `${who} obtiene ${score} de ${max}${pct} en el marco de ventajas competitivas. Veredicto: **${verdict}**.`,
  passes: (passed, scored) => `${passed} de ${scored} criterios puntuados se cumplen.`,
  strengths: 'Fortalezas',
  risks: 'Riesgos',
  noneStrong: 'Ningún criterio se cumple.',
  noneRisk: 'Ningún criterio falla ni tiene advertencia.',
  notScored: 'sin puntuar',
  status: { warning: 'advertencia', fail: 'no cumple' },
  valuation: 'Valoración',
  noValuation: 'No hay valoración disponible para esta evaluación.',
  pe: 'PER',
  payout: 'Ratio de reparto ampliado',
  notAvailable: 'no disponible',
  sellTrigger: (on) => `Señal de venta (PER ≥ 40): ${on ? 'sí, el PER es de al menos 40' : 'no'}`,
  whyMissing: 'Por qué faltan o se matizan algunas cifras (notas en inglés):',
  noReason: 'No se registró ningún motivo para las cifras que faltan.',
  asOf: (day) => `Evaluado a fecha de ${day}, con las cifras presentadas hasta ese día.`,
  dataQuality: 'Calidad de los datos',
  dataQualityIntro:
    'Estas cifras están señaladas; un criterio que se basa en una serie señalada no obtiene puntos por la laguna:',
  dataQualityFlag: 'calidad de los datos',
  disclaimer: 'Solo informativo, no es asesoramiento financiero.',
  inEnglish: 'texto original en inglés',
  criteria: {
    earnings_consistency: 'Constancia de los beneficios',
    gross_margin: 'Margen bruto',
    net_margin: 'Margen neto',
    retained_earnings: 'Beneficios retenidos',
    return_on_invested_capital: 'Rentabilidad del capital invertido',
    debt_sustainability: 'Sostenibilidad de la deuda',
    capex_efficiency: 'Eficiencia de las inversiones',
    product_durability: 'Durabilidad de los productos',
  },
  verdicts: [
    'Ventaja competitiva fuerte y duradera',
    'Ventaja competitiva moderada',
    'Ventaja estrecha — proceder con cautela',
    'Sin ventaja competitiva clara',
  ],
  headline: {
    median: (n) => `mediana ${n}`,
    perYear: (n) => `${n} al año`,
    years: (n) => `${n} años de beneficio neto`,
    ofNetIncome: (n) => `${n} del beneficio neto`,
    outOf100: (n) => `${n} de 100`,
  },
};

const IT: Strings = {
  decimal: ',',
  percent: (n) => `${n}%`,
  summaryTitle: 'Sintesi',
  scores: (who, score, max, pct, verdict) =>
    `${who} ottiene ${score} su ${max}${pct} nello schema dei vantaggi competitivi. Giudizio: **${verdict}**.`,
  passes: (passed, scored) => `${passed} su ${scored} criteri valutati sono soddisfatti.`,
  strengths: 'Punti di forza',
  risks: 'Rischi',
  noneStrong: 'Nessun criterio è soddisfatto.',
  noneRisk: 'Nessun criterio fallisce o è in avviso.',
  notScored: 'non valutato',
  status: { warning: 'avviso', fail: 'non soddisfatto' },
  valuation: 'Valutazione',
  noValuation: 'Nessuna valutazione disponibile per questa analisi.',
  pe: 'P/U',
  payout: 'Rapporto di distribuzione esteso',
  notAvailable: 'non disponibile',
  sellTrigger: (on) => `Segnale di vendita (P/U ≥ 40): ${on ? 'sì, il P/U è almeno 40' : 'no'}`,
  whyMissing: 'Perché alcuni valori mancano o sono limitati (note in inglese):',
  noReason: 'Nessun motivo è stato registrato per i valori mancanti.',
  asOf: (day) => `Valutato al ${day}, sui dati depositati entro quel giorno.`,
  dataQuality: 'Qualità dei dati',
  dataQualityIntro:
    'Questi valori sono segnalati; un criterio basato su una serie segnalata non ottiene punti dalla lacuna:',
  dataQualityFlag: 'qualità dei dati',
  disclaimer: 'Solo a scopo informativo, non è una consulenza finanziaria.',
  inEnglish: 'testo originale in inglese',
  criteria: {
    earnings_consistency: 'Costanza degli utili',
    gross_margin: 'Margine lordo',
    net_margin: 'Margine netto',
    retained_earnings: 'Utili non distribuiti',
    return_on_invested_capital: 'Rendimento del capitale investito',
    debt_sustainability: 'Sostenibilità del debito',
    capex_efficiency: 'Efficienza degli investimenti',
    product_durability: 'Durata dei prodotti',
  },
  verdicts: [
    'Vantaggio competitivo forte e duraturo',
    'Vantaggio competitivo moderato',
    'Vantaggio ristretto — procedere con cautela',
    'Nessun vantaggio competitivo chiaro',
  ],
  headline: {
    median: (n) => `mediana ${n}`,
    perYear: (n) => `${n} all’anno`,
    years: (n) => `${n} anni di utile netto`,
    ofNetIncome: (n) => `${n} dell’utile netto`,
    outOf100: (n) => `${n} su 100`,
  },
};

const NL: Strings = {
  decimal: ',',
  percent: (n) => `${n}%`,
  summaryTitle: 'Samenvatting',
  scores: (who, score, max, pct, verdict) =>
    `${who} scoort ${score} van ${max}${pct} in het schema voor concurrentievoordeel. Oordeel: **${verdict}**.`,
  passes: (passed, scored) => `${passed} van ${scored} beoordeelde criteria zijn gehaald.`,
  strengths: 'Sterke punten',
  risks: 'Zwakke punten',
  noneStrong: 'Geen enkel criterium is gehaald.',
  noneRisk: 'Geen enkel criterium faalt of geeft een waarschuwing.',
  notScored: 'niet beoordeeld',
  status: { warning: 'waarschuwing', fail: 'niet gehaald' },
  valuation: 'Waardering',
  noValuation: 'Voor deze beoordeling is geen waardering beschikbaar.',
  pe: 'K/W',
  payout: 'Uitgebreide uitkeringsratio',
  notAvailable: 'niet beschikbaar',
  sellTrigger: (on) => `Verkoopsignaal (K/W ≥ 40): ${on ? 'ja, de K/W is minstens 40' : 'nee'}`,
  whyMissing: 'Waarom sommige cijfers ontbreken of beperkt zijn (opmerkingen in het Engels):',
  noReason: 'Voor de ontbrekende cijfers is geen reden vastgelegd.',
  asOf: (day) => `Beoordeeld per ${day}, op de cijfers die tot die dag waren ingediend.`,
  dataQuality: 'Datakwaliteit',
  dataQualityIntro:
    'Deze cijfers zijn gemarkeerd; een criterium dat op een gemarkeerde reeks rust, krijgt voor het gat geen punten:',
  dataQualityFlag: 'datakwaliteit',
  disclaimer: 'Alleen ter informatie, geen financieel advies.',
  inEnglish: 'oorspronkelijke tekst in het Engels',
  criteria: {
    earnings_consistency: 'Stabiliteit van de winst',
    gross_margin: 'Brutomarge',
    net_margin: 'Nettomarge',
    retained_earnings: 'Ingehouden winst',
    return_on_invested_capital: 'Rendement op geïnvesteerd kapitaal',
    debt_sustainability: 'Houdbaarheid van de schuld',
    capex_efficiency: 'Efficiëntie van de investeringen',
    product_durability: 'Duurzaamheid van de producten',
  },
  verdicts: [
    'Sterk en duurzaam concurrentievoordeel',
    'Gematigd concurrentievoordeel',
    'Smalle slotgracht — ga voorzichtig te werk',
    'Geen duidelijk concurrentievoordeel',
  ],
  headline: {
    median: (n) => `mediaan ${n}`,
    perYear: (n) => `${n} per jaar`,
    years: (n) => `${n} jaar nettowinst`,
    ofNetIncome: (n) => `${n} van de nettowinst`,
    outOf100: (n) => `${n} van 100`,
  },
};

const PT: Strings = {
  decimal: ',',
  percent: (n) => `${n}%`,
  summaryTitle: 'Resumo',
  scores: (who, score, max, pct, verdict) =>
    `${who} obtém ${score} de ${max}${pct} no modelo de vantagens competitivas. Veredito: **${verdict}**.`,
  passes: (passed, scored) => `${passed} de ${scored} critérios pontuados são cumpridos.`,
  strengths: 'Pontos fortes',
  risks: 'Riscos',
  noneStrong: 'Nenhum critério é cumprido.',
  noneRisk: 'Nenhum critério falha nem tem alerta.',
  notScored: 'sem pontuação',
  status: { warning: 'alerta', fail: 'não cumprido' },
  valuation: 'Avaliação de preço',
  noValuation: 'Não há avaliação de preço disponível para esta análise.',
  pe: 'P/L',
  payout: 'Índice de distribuição ampliado',
  notAvailable: 'não disponível',
  sellTrigger: (on) => `Sinal de venda (P/L ≥ 40): ${on ? 'sim, o P/L é de pelo menos 40' : 'não'}`,
  whyMissing: 'Por que alguns valores faltam ou têm ressalvas (notas em inglês):',
  noReason: 'Nenhum motivo foi registado para os valores em falta.',
  asOf: (day) => `Avaliado à data de ${day}, com os valores entregues até esse dia.`,
  dataQuality: 'Qualidade dos dados',
  dataQualityIntro:
    'Estes valores estão assinalados; um critério que assenta numa série assinalada não ganha pontos com a lacuna:',
  dataQualityFlag: 'qualidade dos dados',
  disclaimer: 'Apenas informativo, não é aconselhamento financeiro.',
  inEnglish: 'texto original em inglês',
  criteria: {
    earnings_consistency: 'Constância dos lucros',
    gross_margin: 'Margem bruta',
    net_margin: 'Margem líquida',
    retained_earnings: 'Lucros retidos',
    return_on_invested_capital: 'Retorno sobre o capital investido',
    debt_sustainability: 'Sustentabilidade da dívida',
    capex_efficiency: 'Eficiência dos investimentos',
    product_durability: 'Durabilidade dos produtos',
  },
  verdicts: [
    'Vantagem competitiva forte e duradoura',
    'Vantagem competitiva moderada',
    'Vantagem estreita — avançar com cautela',
    'Nenhuma vantagem competitiva clara',
  ],
  headline: {
    median: (n) => `mediana ${n}`,
    perYear: (n) => `${n} ao ano`,
    years: (n) => `${n} anos de lucro líquido`,
    ofNetIncome: (n) => `${n} do lucro líquido`,
    outOf100: (n) => `${n} de 100`,
  },
};

/** The words of every template language. */
export const TEMPLATE_STRINGS: Readonly<Record<TemplateLanguage, Strings>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  it: IT,
  nl: NL,
  pt: PT,
};

import type { MappedKind } from '../../mapping.js';
import { define, type FormatDefinition, fold, type Recognition } from '../definition.js';

// Nordnet's transaction exports ("transactions-and-notes-export.csv") of all four countries and
// their layouts, as data: one shape (UTF-16, tab-separated, ISO dates, decimal comma, an Id
// column, the ISIN as the instrument, the trade price left to the engine as (|amount| − fees) ÷
// quantity) filled with each layout's header words and positions.

/** Where a layout is documented: every Nordnet layout is known from public importers. */
type Source = Omit<FormatDefinition['source'], 'kind'>;
type Read = FormatDefinition['read'];

/**
 * Where a Nordnet layout keeps the amount and its currency.
 *
 * - `{ amountAt, named }`: the amount's currency is a plain repeated column name (`named`,
 *   folded: Valuta, Valuutta) right after the amount (0-based position `amountAt`), and the fees
 *   (two positions before the amount) have a plain one of their own, empty on cash rows. The
 *   currency is read by position (`#<amountAt + 1>`) and recognition pins the fees, the amount and
 *   its currency to their places.
 * - `{ currency }`: the fees' currency has a name of its own (Kokonaiskulut Valuutta, Samlede
 *   afgifter valuta), so the first column of the plain name `currency` is the amount's.
 */
type AmountCurrency =
  | { readonly amountAt: number; readonly named: string }
  | { readonly currency: string };

/** One Nordnet layout: its header words and where its amount's currency stands. */
interface NordnetLayout {
  readonly id: string;
  readonly label: string;
  readonly source: Source;
  /** Folded header names recognition requires (an array: any one of them). */
  readonly headers: Recognition['headers'];
  /** Folded header names recognition refuses. */
  readonly excludes?: readonly string[];
  /** Column names as the export writes them (matched folded). */
  readonly columns: {
    readonly date: string;
    readonly action: string;
    readonly name: string;
    readonly quantity: string;
    readonly fee: string;
    readonly amount: string;
    readonly fxRate: string;
  };
  readonly currency: AmountCurrency;
  readonly actions?: Read['actions'];
  readonly actionPatterns?: Read['actionPatterns'];
}

/** The first alternative of a `a|b` column name, folded. */
const folded = (column: string): string => fold(column.split('|')[0] ?? column);

/**
 * A Nordnet definition from a layout's header words and positions (see {@link NordnetLayout}).
 * Older exports are `;`-separated, which recognition accepts besides the tab.
 */
function nordnetDefinition<const Id extends string>(layout: NordnetLayout & { readonly id: Id }) {
  const { columns, currency } = layout;
  const byPosition = 'amountAt' in currency;
  const positions = byPosition
    ? {
        [String(currency.amountAt - 2)]: [folded(columns.fee)],
        [String(currency.amountAt)]: [folded(columns.amount)],
        [String(currency.amountAt + 1)]: [currency.named],
      }
    : undefined;
  return define({
    id: layout.id,
    label: layout.label,
    version: 1,
    source: { kind: 'open-source-importer', ...layout.source },
    recognise: {
      headers: layout.headers,
      ...(layout.excludes ? { excludes: [...layout.excludes] } : {}),
      ...(positions ? { positions } : {}),
      delimiters: [';'],
      encoding: 'utf-16',
    },
    read: {
      delimiter: '\t',
      columns: {
        id: 'id',
        date: columns.date,
        action: columns.action,
        name: columns.name,
        isin: 'isin',
        quantity: columns.quantity,
        fee: columns.fee,
        amount: columns.amount,
        currency: byPosition ? `#${currency.amountAt + 1}` : currency.currency,
        fxRate: columns.fxRate,
      },
      instrument: 'isin',
      dateOrder: 'ymd',
      decimal: ',',
      actions: layout.actions ?? {},
      ...(layout.actionPatterns ? { actionPatterns: layout.actionPatterns } : {}),
    },
  });
}

/** The Scandinavian languages of Nordnet's exports: Swedish, Danish, Norwegian. */
type Language = 'sv' | 'da' | 'no';

/**
 * Nordnet's transaction types (Transaktionstyp, Transaktionstype, Transaksjonstype) as patterns by
 * kind in each Scandinavian language, in the order they are tried (the first that matches wins).
 * Tax comes before the dividend in Danish and Norwegian (`UDBYTTESKAT` holds `udbytte`), after it
 * in Swedish (`utdelning`, then the withholding taxes). `UDB.` is the dividend's name in the 2021
 * Danish layout's importer ({@link nordnetDk2021}); only the Swedish list reads currency
 * exchanges (`VALUTAVÄXLING`) as cash.
 */
const TYPES: readonly (readonly [MappedKind, Partial<Record<Language, string>>])[] = [
  ['buy', { sv: '^köpt|^köp', da: '^købt|^køb', no: '^kjøpt|^kjøp' }],
  ['sell', { sv: '^sålt|^sälj', da: '^solgt|^salg', no: '^solgt|^salg' }],
  ['tax', { da: 'udbytteskat|skat', no: 'kildeskatt|skatt' }],
  ['dividend', { sv: 'utdelning', da: 'udbytte|^udb\\.', no: 'utbytte' }],
  ['tax', { sv: 'kupskatt|källskatt|skatt' }],
  ['interest', { sv: 'ränta|inlåningsränta', da: 'rente', no: 'rente' }],
  ['deposit', { sv: 'insättning', da: 'indbetaling|indsættelse', no: 'innskudd|innbetaling' }],
  ['withdrawal', { sv: 'uttag', da: 'hævning|udbetaling', no: 'uttak|utbetaling' }],
  ['fee', { sv: 'avgift|courtage', da: 'gebyr|afgift', no: 'gebyr|avgift' }],
  ['cash', { sv: 'valutaväxling|växling' }],
];

/** The transaction types of {@link TYPES} in one language, as action patterns. */
const typesIn = (language: Language): Read['actionPatterns'] =>
  TYPES.flatMap(([kind, words]) => {
    const pattern = words[language];
    return pattern === undefined ? [] : [{ pattern, kind }];
  });

/**
 * Nordnet (Sweden) transactions and notes. Four columns are named Valuta, each the currency of the
 * number before it: Belopp's is the one right after it (position 14); the first (position 12) is
 * Total Avgift's and empty on cash rows, so recognition pins the positions of Total Avgift, Belopp
 * and its Valuta.
 */
export const nordnet = nordnetDefinition({
  id: 'nordnet',
  label: 'Nordnet transaktioner (svenska)',
  source: {
    reference:
      'beangulp Nordnet importer docstrings and public Nordnet parsers (research/import-languages.md; a public NORDNET_FIELDNAMES list: Id, Bokföringsdag, Affärsdag, Likviddag, Depå, Transaktionstyp, Värdepapper, ISIN, Antal, Kurs, Ränta, Total Avgift, Valuta, Belopp, Valuta, Inköpsvärde, Valuta, …, Växlingskurs)',
    note: "recent exports are UTF-16, tab-separated; older ones `;`. Belopp is signed in the currency of the Valuta after it (the first Valuta is the fees', empty on cash rows); the trade price is |Belopp| − fees ÷ Antal in that currency",
  },
  headers: [
    'bokforingsdag',
    'affarsdag',
    'transaktionstyp',
    'vardepapper',
    'isin',
    'antal',
    'kurs',
    'belopp',
    'valuta',
  ],
  columns: {
    date: 'affärsdag',
    action: 'transaktionstyp',
    name: 'värdepapper',
    quantity: 'antal',
    fee: 'total avgift|courtage',
    amount: 'belopp',
    fxRate: 'växlingskurs',
  },
  currency: { amountAt: 13, named: 'valuta' },
  actionPatterns: typesIn('sv'),
});

/**
 * The Danish columns and transaction types, shared by the Danish layouts (the one without
 * Værdipapirtype also takes Værdipapir for Værdipapirer). The exchange rate is Vekslingskurs in
 * every Danish header the sources give (Vekselkurs, Portfolio Performance's Danish word for it,
 * is not Nordnet's).
 */
const DANISH = {
  columns: {
    date: 'handelsdag',
    action: 'transaktionstype',
    name: 'værdipapirer',
    quantity: 'antal',
    fee: 'samlede afgifter|kurtage',
    amount: 'beløb',
    fxRate: 'vekslingskurs',
  },
  actionPatterns: typesIn('da'),
} satisfies Pick<NordnetLayout, 'columns' | 'actionPatterns'>;

/**
 * Nordnet (Denmark) transactions: UTF-16, tab-separated, Danish headers. Beløb's currency is the
 * Valuta right after it (position 14); the first Valuta (position 12) is Samlede afgifter's and
 * empty on cash rows, so recognition pins the positions of Samlede afgifter, Beløb and its Valuta.
 */
export const nordnetDk = nordnetDefinition({
  id: 'nordnet-dk',
  label: 'Nordnet transaktioner (dansk)',
  source: {
    reference:
      "beangulp Nordnet importer docstrings (Bogføringsdag, Handelsdag, Valørdag, Depot, Transaktionstype; UTF-16, tab), research/import-languages.md, and public parsers' test headers (…, ISIN, Antal, Kurs, Rente, Samlede afgifter, Valuta, Beløb, Valuta, Indkøbsværdi, Valuta, Resultat, Valuta, Totalt antal, Saldo, Vekslingskurs, Transaktionstekst, …, Kurtage, Valuta, Middelkurs, Oprindelig rente)",
    note: "Beløb is signed in the currency of the Valuta after it (the first Valuta is the fees', empty on cash rows)",
  },
  headers: [
    'bogforingsdag',
    'handelsdag',
    'transaktionstype',
    ['vaerdipapirer', 'vaerdipapir'],
    'isin',
    'antal',
    'kurs',
    'belob',
  ],
  ...DANISH,
  columns: { ...DANISH.columns, name: 'værdipapirer|værdipapir' },
  currency: { amountAt: 13, named: 'valuta' },
});

/**
 * Nordnet (Denmark), the layout with Værdipapirtype (the instrument's type) after Værdipapirer:
 * every column from it on stands one place later than in {@link nordnetDk}, so Samlede afgifter is
 * at position 12, its Valuta at 13, Beløb at 14 and Beløb's Valuta at 15; recognition pins those,
 * and refuses the 2021 layout's named fees' currency ({@link nordnetDk2021}).
 */
export const nordnetDkTyped = nordnetDefinition({
  id: 'nordnet-dk-typed',
  label: 'Nordnet transaktioner (dansk, Værdipapirtype)',
  source: {
    reference:
      'a public FireCalc.Api test (PortfolioTests.cs, C#), its header "copied from a real Nordnet export (Danish, UTF-16, tab-separated)": Id, Bogføringsdag, Handelsdag, Valørdag, Depot, Transaktionstype, Værdipapirer, Værdipapirtype, ISIN, Antal, Kurs, Rente, Samlede afgifter, Valuta, Beløb, Valuta, Indkøbsværdi, Valuta, Resultat, Valuta, Totalt antal, Saldo, Vekslingskurs, Transaktionstekst, Makuleringsdato, Notanummer, Verifikationsnummer, Kurtage, Valuta',
    licence: 'none stated where read',
    note: "types KØBT, SOLGT, UDBYTTE, UDBYTTESKAT, INDBETALING, INDSÆTTELSE, HÆVNING; Beløb is signed in the currency of the Valuta after it (the first Valuta is the fees', empty on cash rows); Værdipapirtype (Aktier, …) is not read",
  },
  headers: [
    'bogforingsdag',
    'handelsdag',
    'transaktionstype',
    'vaerdipapirer',
    'vaerdipapirtype',
    'isin',
    'antal',
    'kurs',
    'belob',
    'valuta',
  ],
  excludes: ['samledeafgiftervaluta'],
  ...DANISH,
  currency: { amountAt: 14, named: 'valuta' },
});

/**
 * Nordnet (Denmark), the older layout (2021) whose fees' currency has a name of its own (Samlede
 * afgifter valuta), as {@link nordnetFi2021} has Kokonaiskulut Valuutta: the first plain Valuta
 * is Beløb's. Indkøbsværdi and Resultat have no currency column; Kurtage's is Kurtage valuta.
 */
export const nordnetDk2021 = nordnetDefinition({
  id: 'nordnet-dk-2021',
  label: 'Nordnet transaktioner (dansk, Samlede afgifter valuta)',
  source: {
    reference:
      'a public beancount Nordnet importer (Python; transactions-and-notes-export, UTF-16LE, tab), its column comment by position: 0 Id, 1 Bogføringsdag, 2 Handelsdag, 3 Valørdag, 4 Depot, 5 Transaktionstype, 6 Værdipapirer, 7 Værdipapirtype, 8 ISIN, 9 Antal, 10 Kurs, 11 Rente, 12 Samlede afgifter, 13 Samlede afgifter valuta, 14 Beløb, 15 Valuta, 16 Indkøbsværdi, 17 Resultat, 18 Total antal, 19 Saldo, 20 Vekslingskurs, 21 Transaktionstekst, 25 Kurtage, 26 Kurtage valuta',
    licence: 'none stated where read',
    note: 'types UDBYTTESKAT, UDB., KØBT, INDBETALING, SOLGT; dates as 2021-10-15, amounts as 1.447,32; names lower-case in the source (recognition folds case). It reads the currency at 15, the rate at 20 and Kurtage at 25: this layout, not the one with four Valuta columns. Beløb is signed in the currency of the Valuta after it',
  },
  headers: [
    'bogforingsdag',
    'handelsdag',
    'transaktionstype',
    'vaerdipapirer',
    'isin',
    'antal',
    'samledeafgiftervaluta',
    'belob',
    'valuta',
  ],
  ...DANISH,
  currency: { currency: 'valuta' },
});

/**
 * Nordnet (Norway) transactions, Norwegian headers. Beløp's currency is the Valuta right after it
 * (position 14); the first Valuta (position 12) is Totale Avgifter's and empty on cash rows, so
 * recognition pins the positions of Totale Avgifter, Beløp and its Valuta.
 */
export const nordnetNo = nordnetDefinition({
  id: 'nordnet-no',
  label: 'Nordnet transaksjoner (norsk)',
  source: {
    reference:
      'beangulp Nordnet importer docstrings and a public sample file header (Bokføringsdag, Handelsdag, Oppgjørsdag, Portefølje, Transaksjonstype, Verdipapir, ISIN, Antall, Kurs, Rente, Totale Avgifter, Valuta, Beløp, Valuta, Kjøpsverdi, Valuta, …, Vekslingskurs, Kurtasje)',
    note: "Beløp is signed in the currency of the Valuta after it (the first Valuta is the fees', empty on cash rows)",
  },
  headers: [
    'bokforingsdag',
    'handelsdag',
    'oppgjorsdag',
    'transaksjonstype',
    'verdipapir',
    'isin',
    'antall',
    'belop',
  ],
  columns: {
    date: 'handelsdag',
    action: 'transaksjonstype',
    name: 'verdipapir',
    quantity: 'antall',
    fee: 'totale avgifter|kurtasje',
    amount: 'beløp',
    fxRate: 'vekslingskurs',
  },
  currency: { amountAt: 13, named: 'valuta' },
  actionPatterns: typesIn('no'),
});

const NORDNET_FI_ROWS =
  'Summa is signed in the currency of the Valuutta after it; a trade is recorded at (|Summa| − Kokonaiskulut) ÷ Määrä in that currency (Kurssi is in the instrument currency); OSINKO is gross and ENNAKKOPIDÄTYS (withholding) a row of its own; LAINAKORKO (margin-loan interest) is a cost';

/** The Finnish columns and transaction types, shared by the Finnish layouts. */
const FINNISH = {
  columns: {
    date: 'kauppapäivä',
    action: 'tapahtumatyyppi',
    name: 'arvopaperi',
    quantity: 'määrä',
    fee: 'kokonaiskulut',
    amount: 'summa',
    fxRate: 'vaihtokurssi',
  },
  actions: {
    osto: 'buy',
    myynti: 'sell',
    osinko: 'dividend',
    ennakkopidätys: 'tax',
    'ulkom. kuponkivero': 'tax',
    lähdevero: 'tax',
    talletus: 'deposit',
    nosto: 'withdrawal',
    'valuutan osto': 'cash',
    'valuutan myynti': 'cash',
    talletuskorko: 'interest',
    lainakorko: 'fee',
    'pääomit ylit.korko': 'fee',
    'jättö siirto': 'shares',
    'rahastoanti ap jättö': 'shares',
  },
  actionPatterns: [
    { pattern: '^reaaliaikainen talle', kind: 'deposit' },
    { pattern: 'palvelumaksu|palkkio', kind: 'fee' },
  ],
} satisfies Pick<NordnetLayout, 'columns' | 'actions' | 'actionPatterns'>;

/**
 * Nordnet (Finland) transactions ("Tapahtumat ja muistiinpanot"): UTF-16, tab-separated, Finnish
 * headers. Five columns are named Valuutta, each the currency of the number before it: Summa's is
 * the one right after it (position 14), the first (position 12) is that of the costs and empty on
 * cash rows, so recognition pins the positions of Kokonaiskulut, Summa and its Valuutta.
 */
export const nordnetFi = nordnetDefinition({
  id: 'nordnet-fi',
  label: 'Nordnet tapahtumat (suomi)',
  source: {
    reference:
      'jaantaponen/verotunkki src/utils/parsers/types.ts (NordnetHeaders: Id, Kirjauspäivä, Kauppapäivä, Maksupäivä, Salkku, Tapahtumatyyppi, Arvopaperi, ISIN, Määrä, Kurssi, Korko, Kokonaiskulut, Summa, Valuutta, …); a public Elixir NordnetCsvParser (UTF-16LE, tab; 12 Valuutta, 13 Summa, 14 Valuutta; OSTO, MYYNTI, OSINKO, ENNAKKOPIDÄTYS, TALLETUS, NOSTO, VALUUTAN OSTO, LAINAKORKO …); PFS EtNordnetFI (MPL-2.0: yyyy-MM-dd, decimal comma)',
    note: `${NORDNET_FI_ROWS}; the older layout with Instrumenttityyppi is nordnet-fi-2021`,
  },
  headers: [
    'kirjauspaiva',
    'kauppapaiva',
    'tapahtumatyyppi',
    'arvopaperi',
    'isin',
    'maara',
    'summa',
    'valuutta',
  ],
  ...FINNISH,
  currency: { amountAt: 13, named: 'valuutta' },
});

/**
 * Nordnet (Finland), the layout with Instrumenttityyppi (documented as of August 2021): the costs'
 * currency has a name of its own (Kokonaiskulut Valuutta), so the first plain Valuutta is
 * Summa's. Rows read as {@link nordnetFi}.
 */
export const nordnetFi2021 = nordnetDefinition({
  id: 'nordnet-fi-2021',
  label: 'Nordnet tapahtumat (suomi, Instrumenttityyppi)',
  source: {
    reference:
      'PFS EtNordnetFI (Jami Suni, MPL-2.0: the layout "as of Nordnet 2021-Aug-27th": Id, Kirjauspäivä, Kauppapäivä, Maksupäivä, Salkku, Tapahtumatyyppi, Arvopaperi, Instrumenttityyppi, ISIN, Määrä, Kurssi, Korko, Kokonaiskulut, Kokonaiskulut Valuutta, Summa, Valuutta, …; UTF-16, tab) and jaantaponen/verotunkki src/utils/parsers/types.ts',
    licence: 'MPL-2.0',
    note: NORDNET_FI_ROWS,
  },
  headers: [
    'kirjauspaiva',
    'kauppapaiva',
    'tapahtumatyyppi',
    'arvopaperi',
    'instrumenttityyppi',
    'isin',
    'maara',
    'kokonaiskulutvaluutta',
    'summa',
    'valuutta',
  ],
  ...FINNISH,
  currency: { currency: 'valuutta' },
});

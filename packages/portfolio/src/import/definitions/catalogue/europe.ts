import { define } from '../definition.js';

// Broker formats of continental Europe, as data. Each `source` names where the layout is
// documented; where that is an open-source importer, it was read as documentation of the
// broker's file (the format is a fact; no code is copied).

const E2G = 'dickwolff/Export-To-Ghostfolio@9e35bd60';

/** Scalable Capital (new broker platform) transactions CSV. */
export const scalableCapital = define({
  id: 'scalable-capital',
  label: 'Scalable Capital transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'GhostfolioSidekick Parsers.UnitTests/TestFiles/ScalableCapital/Prime (test/fixtures/generic-exports of this package)',
    licence: 'MIT',
    note: 'rows whose status is not Executed (cancelled, rejected orders) are skipped',
  },
  recognise: {
    headers: [
      'date',
      'time',
      'status',
      'reference',
      'description',
      'assettype',
      'type',
      'isin',
      'shares',
      'price',
      'amount',
      'fee',
      'tax',
      'currency',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'date',
      time: 'time',
      action: 'type',
      isin: 'isin',
      name: 'description',
      quantity: 'shares',
      price: 'price',
      amount: 'amount',
      fee: 'fee',
      tax: 'tax',
      currency: 'currency',
      id: 'reference',
    },
    dateOrder: 'ymd',
    decimal: ',',
    actions: {
      buy: 'buy',
      'savings plan': 'buy',
      sell: 'sell',
      distribution: 'dividend',
      dividend: 'dividend',
      deposit: 'deposit',
      withdrawal: 'withdrawal',
      interest: 'interest',
      fee: 'fee',
      taxes: 'tax',
      'corporate action': 'skip',
    },
    skipRows: [{ column: 'status', pattern: '^(?!executed$)', reason: 'order not executed' }],
  },
});

/** Parqet (portfolio tracker) activity export. */
export const parqet = define({
  id: 'parqet',
  label: 'Parqet activities',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/parqetConverter.ts, src/models/parqetRecord.ts`,
    licence: 'Apache-2.0',
    note: 'price is per share; amount = shares × price; TransferIn/TransferOut move shares between depots: units received / removed at no cash',
  },
  recognise: {
    headers: [
      'datetime',
      'date',
      'price',
      'shares',
      'amount',
      'tax',
      'fee',
      'type',
      'holding',
      'identifier',
      'currency',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'datetime',
      action: 'type',
      isin: 'identifier',
      name: 'holdingname',
      quantity: 'shares',
      price: 'price',
      fee: 'fee',
      tax: 'tax',
      amount: 'amount',
      currency: 'currency',
      fxRate: 'fxrate',
    },
    instrument: 'isin',
    dateOrder: 'ymd',
    decimal: ',',
    dividendAmount: 'gross',
    actions: {
      buy: 'buy',
      sell: 'sell',
      dividend: 'dividend',
      interest: 'interest',
      deposit: 'deposit',
      withdrawal: 'withdrawal',
      fee: 'fee',
      tax: 'tax',
      transferin: 'shares',
      transferout: 'skip',
    },
  },
});

/** Portfolio Performance CSV export of account and portfolio transactions (German locale). */
export const portfolioPerformanceDe = define({
  id: 'portfolio-performance-de',
  label: 'Portfolio Performance CSV export (German)',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'portfolio-performance/portfolio name.abuchen.portfolio/src/name/abuchen/portfolio/datatransfer/csv (CSVExporter, field labels in messages_de.properties)',
    licence: 'EPL-1.0',
  },
  recognise: {
    headers: [
      'datum',
      'typ',
      'wert',
      'buchungswahrung',
      ['stuck', 'stueck'],
      ['wertpapiername', 'isin'],
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'datum',
      action: 'typ',
      amount: 'wert',
      currency: 'buchungswährung',
      fee: 'gebühren',
      tax: 'steuern',
      quantity: 'stück',
      isin: 'isin',
      symbol: 'ticker-symbol',
      name: 'wertpapiername',
      fxRate: 'wechselkurs',
    },
    instrument: 'isin',
    dateOrder: 'ymd',
    decimal: ',',
    actions: {
      kauf: 'buy',
      einlieferung: 'shares',
      verkauf: 'sell',
      auslieferung: 'skip',
      dividende: 'dividend',
      einlage: 'deposit',
      entnahme: 'withdrawal',
      zinsen: 'interest',
      gebühren: 'fee',
      gebührenerstattung: 'deposit',
      steuern: 'tax',
      steuerrückerstattung: 'deposit',
      'umbuchung (eingang)': 'deposit',
      'umbuchung (ausgang)': 'withdrawal',
    },
  },
});

/** Portfolio Performance CSV export (English locale). */
export const portfolioPerformanceEn = define({
  id: 'portfolio-performance-en',
  label: 'Portfolio Performance CSV export (English)',
  version: 1,
  source: portfolioPerformanceDe.source,
  recognise: {
    headers: ['date', 'type', 'value', 'transactioncurrency', 'shares', ['securityname', 'isin']],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'date',
      action: 'type',
      amount: 'value',
      currency: 'transaction currency',
      fee: 'fees',
      tax: 'taxes',
      quantity: 'shares',
      isin: 'isin',
      symbol: 'ticker symbol',
      name: 'security name',
      fxRate: 'exchange rate',
    },
    instrument: 'isin',
    dateOrder: 'ymd',
    decimal: '.',
    actions: {
      buy: 'buy',
      'delivery (inbound)': 'shares',
      sell: 'sell',
      'delivery (outbound)': 'skip',
      dividend: 'dividend',
      deposit: 'deposit',
      removal: 'withdrawal',
      withdrawal: 'withdrawal',
      interest: 'interest',
      fees: 'fee',
      'fees refund': 'deposit',
      taxes: 'tax',
      'tax refund': 'deposit',
      'transfer (inbound)': 'deposit',
      'transfer (outbound)': 'withdrawal',
    },
  },
});

/** comdirect depot transactions ("Depotumsätze"), Windows-1252, below a preamble. */
export const comdirect = define({
  id: 'comdirect',
  label: 'comdirect Depotumsätze',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'tresor-one/tresor-import issues #3469, #4885 (header rows of comdirect CSV exports), research/import-languages.md',
    note: 'the depot file has no type column: a negative amount is a purchase, a positive one a sale; dividends are on the current account, not in this file. The WKN is the instrument',
  },
  recognise: {
    headers: [
      'buchungstag',
      'geschaftstag',
      ['stucknom', 'stuckenom'],
      'bezeichnung',
      'wkn',
      'wahrung',
      'ausfuhrungskurs',
      'umsatzineur',
    ],
    preamble: true,
    encoding: 'windows-1252',
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'geschäftstag',
      symbol: 'wkn',
      name: 'bezeichnung',
      quantity: 'stück / nom.|stücke/nom.',
      amount: 'umsatz in eur',
    },
    currency: 'EUR',
    sideFrom: 'amount',
    dateOrder: 'dmy',
    decimal: ',',
    actions: {},
  },
});

/** Swissquote transactions export (English or German headers). */
export const swissquote = define({
  id: 'swissquote',
  label: 'Swissquote transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/swissquoteConverter.ts, src/models/swissquoteRecord.ts`,
    licence: 'Apache-2.0',
    note: 'Net Amount is signed (negative for purchases) in the row currency; Forex credit/debit rows are the two legs of a conversion',
  },
  recognise: {
    headers: [
      ['date', 'datum'],
      ['ordernr', 'order', 'auftrag'],
      ['transaction', 'transaktionen'],
      'symbol',
      'isin',
      ['quantity', 'anzahl'],
      ['netamount', 'nettobetrag'],
      ['currency', 'wahrung'],
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'date|datum',
      id: 'order #|auftrag #',
      action: 'transaction|transaktionen',
      symbol: 'symbol',
      name: 'name',
      isin: 'isin',
      quantity: 'quantity|anzahl',
      price: 'unit price|stückpreis',
      fee: 'costs|kosten',
      amount: 'net amount|nettobetrag',
      currency: 'currency|währung',
    },
    instrument: 'isin',
    dateOrder: 'dmy',
    decimal: '.',
    actions: {},
    actionPatterns: [
      { pattern: '^(buy|kauf)', kind: 'buy' },
      { pattern: '^(sell|verkauf)', kind: 'sell' },
      { pattern: '^dividend', kind: 'dividend' },
      { pattern: 'withholding|quellensteuer|tax|steuer', kind: 'tax' },
      { pattern: 'custody fee|depotgeb|fee|gebühr', kind: 'fee' },
      { pattern: 'interest|zins', kind: 'interest' },
      {
        pattern:
          'forex|payment|zahlung|credit|debit|deposit|withdrawal|transfer|gutschrift|belastung',
        kind: 'cash',
      },
    ],
  },
});

/** finpension (Swiss pillar 3a / vested benefits) transactions. */
export const finpension = define({
  id: 'finpension',
  label: 'finpension transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/finpensionConverter.ts, src/models/finpensionRecord.ts`,
    licence: 'Apache-2.0',
    note: 'every amount is in CHF: Asset Price in CHF per share, Cash Flow signed; "Portfolio Transaction" is a purchase when the cash flow is negative',
  },
  recognise: {
    headers: [
      'date',
      'category',
      'assetname',
      'isin',
      'numberofshares',
      'assetcurrency',
      'assetpriceinchf',
      'cashflow',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'date',
      action: 'category',
      name: 'asset name',
      isin: 'isin',
      quantity: 'number of shares',
      price: 'asset price in chf',
      amount: 'cash flow',
      fxRate: 'currency rate',
    },
    currency: 'CHF',
    sideFrom: 'amount',
    dateOrder: 'ymd',
    decimal: '.',
    actions: {
      buy: 'buy',
      sell: 'sell',
      'portfolio transaction': 'trade',
      dividend: 'dividend',
      deposit: 'deposit',
      withdrawal: 'withdrawal',
      fee: 'fee',
      interest: 'interest',
    },
  },
});

/** Directa SIM (Italy) movements, below a preamble. */
export const directa = define({
  id: 'directa',
  label: 'Directa movimenti',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/directaConverter.ts, src/models/directaRecord.ts`,
    licence: 'Apache-2.0',
    note: 'amounts in EUR (Importo euro), signed; quantities may be negative on sales; "bollo" (stamp duty) is a fee',
  },
  recognise: {
    headers: [
      'dataoperazione',
      'datavaluta',
      'tipooperazione',
      'ticker',
      'isin',
      'descrizione',
      ['quantita', 'quantit'],
      'importoeuro',
    ],
    preamble: true,
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'data operazione',
      action: 'tipo operazione',
      symbol: 'ticker',
      isin: 'isin',
      name: 'descrizione',
      quantity: 'quantità|quantit',
      amount: 'importo euro',
      id: 'riferimento ordine',
    },
    instrument: 'isin',
    currency: 'EUR',
    dateOrder: 'dmy',
    decimal: '.',
    actions: {},
    actionPatterns: [
      { pattern: 'acquisto', kind: 'buy' },
      { pattern: 'vendita', kind: 'sell' },
      { pattern: 'rit\\.|ritenuta|tobin', kind: 'tax' },
      { pattern: 'provento|dividend|coupon', kind: 'dividend' },
      { pattern: 'cedola', kind: 'interest' },
      { pattern: 'commission|ratei|bollo', kind: 'fee' },
      { pattern: 'conferimento|bonifico|prelievo|finanziamento', kind: 'cash' },
    ],
  },
});

/** Fineco (Italy) securities movements ("Movimenti titoli"), below a preamble. */
export const fineco = define({
  id: 'fineco',
  label: 'Fineco movimenti titoli',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'Export-To-Ghostfolio finecoConverter (as summarised in research/import-languages.md: header found by operazione / data valuta / descrizione, sign column A/V, decimal comma)',
    licence: 'Apache-2.0',
    note: 'Segno A = acquisto (buy), V = vendita (sell); Controvalore in Divisa',
  },
  recognise: {
    headers: [
      'operazione',
      'datavaluta',
      'descrizione',
      'titolo',
      'isin',
      'segno',
      'quantita',
      'divisa',
      'prezzo',
      'controvalore',
    ],
    preamble: true,
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'operazione',
      action: 'descrizione',
      side: 'segno',
      name: 'titolo',
      isin: 'isin',
      quantity: 'quantita',
      price: 'prezzo',
      amount: 'controvalore',
      fee: 'commissioni',
      currency: 'divisa',
      fxRate: 'cambio',
    },
    instrument: 'isin',
    dateOrder: 'dmy',
    decimal: ',',
    sides: { a: 'buy', v: 'sell' },
    actions: {},
    actionPatterns: [
      { pattern: 'compravendita|acquisto|vendita', kind: 'trade' },
      { pattern: 'ritenuta|imposta|tassa|tobin', kind: 'tax' },
      { pattern: 'dividend', kind: 'dividend' },
      { pattern: 'cedol', kind: 'interest' },
      { pattern: 'commission|spese|bollo', kind: 'fee' },
    ],
  },
});

/** BUX (Netherlands) transactions. */
export const bux = define({
  id: 'bux',
  label: 'BUX transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/buxConverter.ts, src/models/buxRecord.ts`,
    licence: 'Apache-2.0',
    note: 'Transaction Amount is signed in the transaction currency (negative: a purchase); Asset Id is the ISIN; dividends are net with Dividend Tax Amount withheld',
  },
  recognise: {
    headers: [
      'transactiontimecet',
      'transactioncategory',
      'transactiontype',
      'transactionamount',
      'transactioncurrency',
      'assetid',
      'assetquantity',
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'transaction time (cet)',
      action: 'transaction type',
      isin: 'asset id',
      name: 'asset name',
      quantity: 'asset quantity',
      amount: 'transaction amount',
      tax: 'dividend tax amount',
      currency: 'transaction currency',
      fxRate: 'exchange rate',
    },
    instrument: 'isin',
    sideFrom: 'amount',
    dateOrder: 'ymd',
    decimal: '.',
    actions: {},
    actionPatterns: [
      { pattern: 'buy|sell', kind: 'trade' },
      { pattern: 'dividend', kind: 'dividend' },
      { pattern: 'interest', kind: 'interest' },
      { pattern: 'fee', kind: 'fee' },
      { pattern: 'tax', kind: 'tax' },
      { pattern: 'deposit|withdrawal|promotional|correction', kind: 'cash' },
      { pattern: 'corporate action', kind: 'skip' },
    ],
  },
});

/** flatex (Germany, Austria) depot transactions ("Depotumsätze"). */
export const flatex = define({
  id: 'flatex',
  label: 'flatex Depotumsätze',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'public flatex CSV parsers (Depotumsätze: Nummer;Buchtag;Valuta;ISIN;Bezeichnung;Nominal;Einheit;Buchungsinformationen;TA.-Nr.;Kurs;Währung;Depot)',
    note: 'the depot file moves units only (cash, fees and dividends are on the cash account): Nominal is negative for a sale; the price is Kurs',
  },
  recognise: {
    headers: [
      'buchtag',
      'valuta',
      'isin',
      'bezeichnung',
      'nominal',
      'buchungsinformationen',
      'kurs',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'buchtag',
      id: 'ta.-nr.',
      isin: 'isin',
      name: 'bezeichnung',
      quantity: 'nominal',
      action: 'buchungsinformationen',
      price: 'kurs',
      currency: 'währung',
    },
    instrument: 'isin',
    sideFrom: 'quantity',
    dateOrder: 'dmy',
    decimal: ',',
    actions: {},
    actionPatterns: [
      { pattern: 'kauf|verkauf|ausführung|order', kind: 'trade' },
      { pattern: 'dividende|ausschüttung|ertrag', kind: 'skip' },
    ],
  },
});

/** Rabobank (Netherlands) Rabo Beleggen transactions ("mutaties"). */
export const rabobank = define({
  id: 'rabobank',
  label: 'Rabobank beleggen mutaties',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'dickwolff/Export-To-Ghostfolio@ea0ece10 src/converters/rabobankConverter.ts (columns by position: account, name, date DD-MM-YYYY, type, currency, amount = units, price, price currency, currency costs, value, total amount, isin, time, exchange) and src/helpers/fileTypeMatcher.ts (header Portefeuille;Naam;Datum;Type mutatie;Valuta mutatie;Volume;Koers;Valuta koers;Valuta kosten €;Waarde;Bedrag;Isin code;Tijd;Beurs)',
    licence: 'Apache-2.0',
    note: 'Volume is negative on sales; Koers per unit; Valuta kosten € the costs; Bedrag the signed cash amount (a purchase −(Waarde + kosten)); "Contant dividend" rows hold the units in Volume, the dividend per unit in Koers, the gross in Waarde and the net (after Dutch dividend tax) in Bedrag: the dividend is booked net. "Storting / opname" is a deposit or a withdrawal by the sign of Bedrag',
  },
  recognise: {
    headers: [
      'portefeuille',
      'naam',
      'datum',
      'typemutatie',
      'valutamutatie',
      'volume',
      'koers',
      'bedrag',
      'isincode',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'datum',
      action: 'type mutatie',
      name: 'naam',
      isin: 'isin code',
      quantity: 'volume',
      price: 'koers',
      fee: 'valuta kosten €',
      amount: 'bedrag',
      currency: 'valuta mutatie',
    },
    instrument: 'isin',
    currency: 'EUR',
    dateOrder: 'dmy',
    decimal: ',',
    actions: {},
    actionPatterns: [
      { pattern: 'verkoop fondsen', kind: 'sell' },
      { pattern: 'koop fondsen', kind: 'buy' },
      { pattern: 'dividendbelasting', kind: 'tax' },
      { pattern: 'dividend', kind: 'dividend' },
      { pattern: '^rente', kind: 'interest' },
      { pattern: 'tarieven|kosten|fee', kind: 'fee' },
      { pattern: 'storting|opname', kind: 'cash' },
    ],
  },
});

/**
 * Rabobank (Netherlands) Beheerd Beleggen "Mutatieoverzicht", the 19-column layout: the amount's
 * currency and the signed cash amount are separate columns (Bedrag in valuta, which holds the
 * currency code, and Transactie bedrag), and the costs and the dividend tax have columns of their
 * own. A sale's Volume is positive. Not read by {@link rabobank}: it has neither Valuta mutatie,
 * Koers nor Bedrag.
 */
export const rabobank2026 = define({
  id: 'rabobank-2026',
  label: 'Rabobank beleggen mutatieoverzicht (19 kolommen)',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'a public Rabo Zakelijk importer (Python rabo_import.py and its tests, Mutatieoverzicht_<portefeuille>_<van>_<tot>.csv): header Portefeuille;Naam;Datum;Type mutatie;Transactie Eenheid/Valuta;Volume;Koers valuta;Prijs;Transactie valuta;Waarde in valuta;Bedrag in valuta;Transactie bedrag;Valuta kosten €;Opgelopen rente;Dividendbelasting;Transactiebelasting;Isin code;Beurs;Tijd',
    licence: 'none stated where read',
    note: '`;`, cp1252 or UTF-8 with BOM, dates DD-MM-YYYY, 19.777,68; "-" is not applicable. Types koop fondsen, verkoop fondsen, dividend, storting / opname (its sign the direction), and costs named with kosten or fee. Transactie bedrag is the cash, costs and taxes included: a trade is recorded at (|bedrag| ∓ kosten) ÷ Volume, a dividend gross as bedrag + Dividendbelasting with the tax as a fee. Transactiebelasting is not read; other types are refused',
  },
  recognise: {
    headers: [
      'portefeuille',
      'naam',
      'datum',
      'typemutatie',
      'volume',
      'prijs',
      'bedraginvaluta',
      'transactiebedrag',
      'dividendbelasting',
      'isincode',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'datum',
      time: 'tijd',
      action: 'type mutatie',
      name: 'naam',
      isin: 'isin code',
      quantity: 'volume',
      fee: 'valuta kosten €',
      tax: 'dividendbelasting',
      amount: 'transactie bedrag',
      currency: 'bedrag in valuta',
    },
    instrument: 'isin',
    currency: 'EUR',
    dateOrder: 'dmy',
    decimal: ',',
    actions: {
      'koop fondsen': 'buy',
      'verkoop fondsen': 'sell',
      dividend: 'dividend',
      'storting / opname': 'cash',
    },
    actionPatterns: [{ pattern: 'kosten|fee', kind: 'fee' }],
  },
});

const ING_NL =
  'TimoKoole/Convert2PortofolioPerformance convert2pp/ingConverterTrans.py, ingConverterAccount.py and their tests (column sets of real exports printed as dicts: UTF-16LE, tab-separated, decimal comma, dates DD-MM-YYYY)';

/**
 * ING (Netherlands) investment account, portfolio transactions ("portfolio-transactions" page
 * export): the units side. Its cash side is the cash-transactions export ({@link ingNlCash});
 * import both into one portfolio.
 */
export const ingNlPortfolio = define({
  id: 'ing-nl-portfolio',
  label: 'ING beleggen portefeuilletransacties',
  version: 1,
  source: {
    kind: 'open-source-importer',
    licence: 'none stated in the repository',
    reference: `${ING_NL}: Datum, Naam, Aantal, Type, Waarde valuta, Waarde, …, Koers valuta, Koers, Wisselkoers, Nummer, Via, Transactiedatum, …, Orderbedrag, ING kosten, Belasting, Notabedrag, …`,
    note: 'no ISIN: the instrument is the fund name (Naam). Type K = koop (buy), UITK = uitkering (dividend, Notabedrag net of Belasting). Other type codes (a sale’s, TOEK allocations) are not documented: a file with them is refused, not guessed. The price is (Notabedrag − ING kosten − Belasting) ÷ Aantal in euro; rows whose Notabedrag is not in euro are skipped with a reason',
  },
  recognise: {
    headers: [
      'datum',
      'naam',
      'aantal',
      'type',
      'koers',
      'orderbedrag',
      'ingkosten',
      'belasting',
      'notabedrag',
    ],
    delimiters: [';'],
    encoding: 'utf-16',
  },
  read: {
    delimiter: '\t',
    columns: {
      date: 'datum',
      action: 'type',
      symbol: 'naam',
      name: 'naam',
      quantity: 'aantal',
      fee: 'ing kosten',
      tax: 'belasting',
      amount: 'notabedrag',
      id: 'nummer',
    },
    currency: 'EUR',
    dateOrder: 'dmy',
    decimal: ',',
    actions: { k: 'buy', uitk: 'dividend' },
    skipRows: [
      {
        column: 'notabedrag valuta',
        pattern: '^(?!\\s*(€|eur)?\\s*$)',
        reason: 'amount not in euro: not read (enter it by hand)',
      },
    ],
  },
});

/** ING (Netherlands) investment account, cash transactions ("cash-transactions" page export). */
export const ingNlCash = define({
  id: 'ing-nl-cash',
  label: 'ING beleggen geldtransacties',
  version: 1,
  source: {
    kind: 'open-source-importer',
    licence: 'none stated in the repository',
    reference: `${ING_NL}: Datum, Omschrijving, Rekeningtype, Valuta, Bedrag, Tegenrekening, Transactienummer, Waarderingsdatum, ING kosten valuta, ING kosten, Belasting valuta, Belasting`,
    note: 'Bedrag is signed, in euro. "Overschrijving beleggingsrekening" moves money in or out (by sign), "Kosten beleggen" is the top-up from the payment account that pays the fee, "Basisfee en/of Servicefee" the fee. Purchases ("koop") and dividends ("Dividenden") are left out here: they are in the portfolio-transactions export (ing-nl-portfolio)',
  },
  recognise: {
    headers: [
      'datum',
      'omschrijving',
      'rekeningtype',
      'valuta',
      'bedrag',
      'transactienummer',
      'ingkosten',
      'belasting',
    ],
    delimiters: [';'],
    encoding: 'utf-16',
  },
  read: {
    delimiter: '\t',
    columns: {
      date: 'datum',
      action: 'omschrijving',
      amount: 'bedrag',
      id: 'transactienummer',
    },
    currency: 'EUR',
    dateOrder: 'dmy',
    decimal: ',',
    actions: {},
    actionPatterns: [
      { pattern: 'basisfee|servicefee', kind: 'fee' },
      { pattern: '^kosten beleggen', kind: 'deposit' },
      { pattern: 'overschrijving beleggingsrekening', kind: 'cash' },
      { pattern: 'koop|dividend', kind: 'skip' },
    ],
  },
});

/** Consorsbank (Germany) order overview ("Orderübersicht"), below a preamble. */
export const consorsbank = define({
  id: 'consorsbank',
  label: 'Consorsbank Orderübersicht',
  version: 1,
  source: {
    kind: 'sample-file',
    reference:
      'tresorone/tresor-import issue #4352 (a user-submitted Orderübersicht_<depot>.csv: preamble Depot;Inhaber;Exportdatum, then Orderart;Orderdatum;Name;WKN;Stück/Nominal;Gültigkeit;Ordertyp;Handelsplatz;Status;Ausführungskurs; dates DD.MM.YY, decimal comma)',
    note: 'orders only: Kauf / Verkauf with the units and the execution price, no costs, taxes, dividends or cash (those are on the Verrechnungskonto, a separate export); orders whose Status is not Ausgeführt are skipped; the WKN is the instrument; prices are read as euro (the file names no currency)',
  },
  recognise: {
    headers: [
      'orderart',
      'orderdatum',
      'name',
      'wkn',
      'stucknominal',
      'ordertyp',
      'status',
      'ausfuhrungskurs',
    ],
    preamble: true,
    encoding: 'windows-1252',
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'orderdatum',
      action: 'orderart',
      symbol: 'wkn',
      name: 'name',
      quantity: 'stück/nominal',
      price: 'ausführungskurs',
    },
    currency: 'EUR',
    dateOrder: 'dmy',
    shortYears: true,
    decimal: ',',
    actions: { kauf: 'buy', verkauf: 'sell' },
    skipRows: [{ column: 'status', pattern: '^(?!ausgeführt$)', reason: 'order not executed' }],
  },
});

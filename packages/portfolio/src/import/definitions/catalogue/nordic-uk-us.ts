import { define } from '../definition.js';

export {
  nordnet,
  nordnetDk,
  nordnetDk2021,
  nordnetDkTyped,
  nordnetFi,
  nordnetFi2021,
  nordnetNo,
} from './nordnet.js';

// Broker formats of the Nordics, the UK and the US, as data (see europe.ts for the conventions).

const E2G = 'dickwolff/Export-To-Ghostfolio@9e35bd60';

/** Avanza (Sweden) transactions ("Transaktioner"). */
export const avanza = define({
  id: 'avanza',
  label: 'Avanza transaktioner',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/avanzaConverter.ts, src/models/avanzaRecord.ts; column names as in public Avanza parsers (Typ av transaktion, Värdepapper/beskrivning)`,
    licence: 'Apache-2.0',
    note: 'Belopp is signed in the transaction currency (SEK for most accounts); a trade is recorded at |Belopp| − Courtage ÷ Antal in that currency',
  },
  recognise: {
    headers: [
      'datum',
      'konto',
      'typavtransaktion',
      'vardepapperbeskrivning',
      'antal',
      'kurs',
      'belopp',
      'isin',
    ],
  },
  read: {
    delimiter: ';',
    columns: {
      date: 'datum',
      action: 'typ av transaktion',
      name: 'värdepapper/beskrivning',
      isin: 'isin',
      quantity: 'antal',
      amount: 'belopp',
      fee: 'courtage|courtage (sek)',
      currency: 'transaktionsvaluta|valuta',
      fxRate: 'valutakurs',
    },
    currency: 'SEK',
    instrument: 'isin',
    dateOrder: 'ymd',
    decimal: ',',
    actions: {},
    actionPatterns: [
      { pattern: 'köp', kind: 'buy' },
      { pattern: 'sälj', kind: 'sell' },
      { pattern: 'utdelning', kind: 'dividend' },
      { pattern: 'källskatt|skatt', kind: 'tax' },
      { pattern: 'ränta|räntor', kind: 'interest' },
      { pattern: 'insättning', kind: 'deposit' },
      { pattern: 'uttag', kind: 'withdrawal' },
      { pattern: 'avgift', kind: 'fee' },
      { pattern: 'övrigt', kind: 'cash' },
    ],
  },
});

/** Freetrade (UK) activity feed export. */
export const freetrade = define({
  id: 'freetrade',
  label: 'Freetrade activity',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/freetradeConverter.ts, src/models/freetradeRecord.ts`,
    licence: 'Apache-2.0',
    note: 'trades at Price per Share in Account Currency; Stamp Duty is the fee; dividends net in the account currency (the withheld tax is in the instrument currency and only noted); FX fees are left out',
  },
  recognise: {
    headers: [
      'title',
      'type',
      'timestamp',
      'accountcurrency',
      'totalamount',
      'buysell',
      'ticker',
      'isin',
      'pricepershareinaccountcurrency',
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'timestamp',
      action: 'type',
      side: 'buy / sell',
      name: 'title',
      symbol: 'ticker',
      isin: 'isin',
      quantity: 'quantity',
      price: 'price per share in account currency',
      fee: 'stamp duty',
      amount: 'total amount',
      currency: 'account currency',
      id: 'order id',
      fxRate: 'fx rate',
    },
    dateOrder: 'ymd',
    decimal: '.',
    sides: { buy: 'buy', sell: 'sell' },
    actions: {
      order: 'trade',
      freeshare_order: 'trade',
      dividend: 'dividend',
      interest_from_cash: 'interest',
      top_up: 'deposit',
      withdrawal: 'withdrawal',
      monthly_statement: 'skip',
    },
  },
});

/** InvestEngine (UK) trading statement. */
export const investEngine = define({
  id: 'investengine',
  label: 'InvestEngine trading statement',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/investEngineConverter.ts, src/models/investEngineRecord.ts`,
    licence: 'Apache-2.0',
    note: 'the statement lists trades only (no cash movements); amounts in GBP; the ISIN is inside "Security / ISIN"; dates DD/MM/YY',
  },
  recognise: {
    headers: [
      'securityisin',
      'transactiontype',
      'quantity',
      'shareprice',
      'totaltradevalue',
      'tradedatetime',
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      isin: 'security / isin',
      name: 'security / isin',
      action: 'transaction type',
      quantity: 'quantity',
      price: 'share price',
      amount: 'total trade value',
      date: 'trade date/time',
    },
    currency: 'GBP',
    dateOrder: 'dmy',
    shortYears: true,
    decimal: '.',
    actions: {
      buy: 'buy',
      sell: 'sell',
      dividend: 'dividend',
      fee: 'fee',
      deposit: 'deposit',
      withdrawal: 'withdrawal',
    },
  },
});

/** Robinhood (US) account activity report. */
export const robinhood = define({
  id: 'robinhood',
  label: 'Robinhood account activity',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'public Robinhood activity parsers (e.g. henry-md/robinhood-visualizer lib/types.ts: Activity Date, Process Date, Settle Date, Instrument, Description, Trans Code, Quantity, Price, Amount)',
    note: 'Trans Code: Buy, Sell, CDIV (cash dividend), ACH (transfer, by sign), INT (interest), GOLD/AFEE/DFEE (fees), DTAX/NRA (tax), SPL/SPR (splits: units received); trailing disclaimer lines are skipped',
  },
  recognise: {
    headers: [
      'activitydate',
      'processdate',
      'settledate',
      'instrument',
      'description',
      'transcode',
      'quantity',
      'price',
      'amount',
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'activity date',
      symbol: 'instrument',
      name: 'description',
      action: 'trans code',
      quantity: 'quantity',
      price: 'price',
      amount: 'amount',
    },
    currency: 'USD',
    dateOrder: 'mdy',
    decimal: '.',
    skipRows: [
      {
        column: 'activity date',
        pattern: '^(?!\\d)',
        reason: 'not a transaction (a disclaimer line)',
      },
    ],
    actions: {
      buy: 'buy',
      sell: 'sell',
      cdiv: 'dividend',
      mdiv: 'dividend',
      int: 'interest',
      slip: 'interest',
      ach: 'cash',
      xent: 'cash',
      dtax: 'tax',
      nra: 'tax',
      gold: 'fee',
      afee: 'fee',
      dfee: 'fee',
      spl: 'shares',
      spr: 'shares',
      rec: 'shares',
    },
  },
});

/** Fidelity (US) account history ("Accounts_History.csv"). */
export const fidelity = define({
  id: 'fidelity',
  label: 'Fidelity account history',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'redstreet/beancount_reds_importers fidelity csv importer (header Run Date,Action,Symbol,Security Description,Security Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Settlement Date) and hledger community Fidelity rules',
    licence: 'GPL-3.0 (read as documentation)',
    note: 'blank lines and a preamble before the header, a disclaimer after the rows; quantities of sales are negative; Amount signed',
  },
  recognise: {
    headers: [
      'rundate',
      'action',
      'symbol',
      ['securitydescription', 'description'],
      'quantity',
      'price',
      'amount',
    ],
    preamble: true,
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'run date',
      action: 'action',
      symbol: 'symbol',
      name: 'security description|description',
      quantity: 'quantity',
      price: 'price ($)|price',
      fee: 'commission ($)|commission',
      amount: 'amount ($)|amount',
    },
    currency: 'USD',
    dateOrder: 'mdy',
    decimal: '.',
    skipRows: [
      {
        column: 'run date',
        pattern: '^(?!\\s*\\d)',
        reason: 'not a transaction (a disclaimer line)',
      },
    ],
    actions: {},
    actionPatterns: [
      { pattern: '^you bought|^reinvestment', kind: 'buy' },
      { pattern: '^you sold', kind: 'sell' },
      {
        pattern: 'dividend received|^dividend|long-term cap gain|short-term cap gain',
        kind: 'dividend',
      },
      { pattern: 'foreign tax|tax withheld', kind: 'tax' },
      { pattern: 'interest', kind: 'interest' },
      { pattern: 'fee', kind: 'fee' },
      { pattern: 'transfer|electronic funds|contribution|deposit|withdrawal|check', kind: 'cash' },
    ],
  },
});

/** Vanguard (US) brokerage download: the transactions section (below the holdings section). */
export const vanguard = define({
  id: 'vanguard',
  label: 'Vanguard brokerage transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'public Vanguard CSV importers (beancount / hledger community rules): Account Number,Trade Date,Settlement Date,Transaction Type,Transaction Description,Investment Name,Symbol,Shares,Share Price,Principal Amount,Commissions and Fees,Net Amount,Accrued Interest,Account Type',
    note: 'the file starts with a holdings table; the transactions table comes after it',
  },
  recognise: {
    headers: [
      'accountnumber',
      'tradedate',
      'settlementdate',
      'transactiontype',
      'transactiondescription',
      'investmentname',
      'symbol',
      'shares',
      'shareprice',
      'netamount',
    ],
    preamble: true,
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'trade date',
      action: 'transaction type',
      name: 'investment name',
      symbol: 'symbol',
      quantity: 'shares',
      price: 'share price',
      fee: 'commissions and fees',
      amount: 'net amount',
    },
    currency: 'USD',
    dateOrder: 'mdy',
    decimal: '.',
    actions: {
      buy: 'buy',
      reinvestment: 'buy',
      sell: 'sell',
      dividend: 'dividend',
      'capital gain (lt)': 'dividend',
      'capital gain (st)': 'dividend',
      interest: 'interest',
      fee: 'fee',
      'funds received': 'deposit',
      withdrawal: 'withdrawal',
      'sweep in': 'skip',
      'sweep out': 'skip',
      'stock split': 'shares',
    },
  },
});

/** Hargreaves Lansdown (UK) account summary / capital transactions. */
export const hargreavesLansdown = define({
  id: 'hargreaves-lansdown',
  label: 'Hargreaves Lansdown transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference:
      'public HL CSV parsers (Trade date,Settle date,Reference,Description,Unit cost (p),Quantity,Value (£)); below a preamble with the account name',
    note: 'Reference B… is a purchase, S… a sale; unit cost in pence; Value signed in GBP; interest, fees and card or transfer payments by their reference; any other reference (dividends included) is not known here and fails the file, so that nothing is imported on a guess',
  },
  recognise: {
    headers: [
      'tradedate',
      'settledate',
      'reference',
      'description',
      'unitcostp',
      'quantity',
      'value',
    ],
    preamble: true,
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'trade date',
      action: 'reference',
      name: 'description',
      isin: 'description',
      quantity: 'quantity',
      price: 'unit cost (p)',
      amount: 'value (£)|value',
    },
    currency: 'GBX',
    dateOrder: 'dmy',
    decimal: '.',
    actions: {},
    actionPatterns: [
      { pattern: '^b\\d', kind: 'buy' },
      { pattern: '^s\\d', kind: 'sell' },
      { pattern: 'interest', kind: 'interest' },
      { pattern: 'fee|charge', kind: 'fee' },
      { pattern: 'card|transfer|receipt|payment|bacs|fpc', kind: 'cash' },
    ],
  },
});

/** Disnat (Desjardins, Canada) transactions, French headers. */
export const disnat = define({
  id: 'disnat',
  label: 'Disnat transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/disnatConverter.ts, src/models/disnatRecord.ts; research/import-languages.md`,
    licence: 'Apache-2.0',
  },
  recognise: {
    headers: [
      'datedetransaction',
      'datedereglement',
      'typedetransaction',
      'symbole',
      'quantite',
      'prix',
      'montantdeloperation',
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'date de transaction',
      action: 'type de transaction',
      symbol: 'symbole',
      name: 'description',
      quantity: 'quantité',
      price: 'prix',
      fee: 'commission payée',
      amount: "montant de l'opération",
      currency: 'devise du compte',
    },
    dateOrder: 'ymd',
    decimal: '.',
    actions: {},
    actionPatterns: [
      { pattern: 'achat', kind: 'buy' },
      { pattern: 'vente', kind: 'sell' },
      { pattern: 'dividende|distribution', kind: 'dividend' },
      { pattern: 'intérêt|interet', kind: 'interest' },
      { pattern: 'frais', kind: 'fee' },
      { pattern: 'impôt|retenue', kind: 'tax' },
      { pattern: 'cotisation|contribution|retrait|transfert|dépôt', kind: 'cash' },
    ],
  },
});

/** Delta (portfolio tracker) export. */
export const delta = define({
  id: 'delta',
  label: 'Delta transactions',
  version: 1,
  source: {
    kind: 'open-source-importer',
    reference: `${E2G} src/converters/deltaConverter.ts, src/models/deltaRecord.ts`,
    licence: 'Apache-2.0',
    note: 'Way BUY/SELL/DEPOSIT/WITHDRAW; Base amount is the units of the asset, Quote amount what was paid in the quote currency',
  },
  recognise: {
    headers: [
      'date',
      'way',
      'baseamount',
      'basecurrencyname',
      'quoteamount',
      'quotecurrency',
      'feeamount',
    ],
  },
  read: {
    delimiter: ',',
    columns: {
      date: 'date',
      action: 'way',
      symbol: 'base currency (name)',
      quantity: 'base amount',
      amount: 'quote amount',
      currency: 'quote currency',
      fee: 'fee amount',
    },
    tradeAmount: 'gross',
    dateOrder: 'ymd',
    decimal: '.',
    actions: {
      buy: 'buy',
      sell: 'sell',
      deposit: 'skip',
      withdraw: 'skip',
      transfer: 'skip',
    },
  },
});

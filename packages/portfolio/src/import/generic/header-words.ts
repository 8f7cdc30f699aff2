/**
 * Header vocabulary of the generic mapper, folded (see `fold`), for English, German, French,
 * Italian, Dutch, Spanish, Portuguese, Swedish, Danish, Norwegian and Polish (from Portfolio
 * Performance's translations and the real headers of research note import-languages.md). A
 * weight of 3 marks a word that names the field; lower weights mark words that also mean
 * something else ("valuta" is a currency in Dutch and Italian but a value date in German, "nombre"
 * a quantity in French but a name in Spanish): the values then decide.
 */
export type HeaderField =
  | 'date'
  | 'action'
  | 'symbol'
  | 'isin'
  | 'name'
  | 'quantity'
  | 'price'
  | 'currency'
  | 'fee'
  | 'amount'
  | 'side'
  | 'details'
  | 'id'
  | 'assetClass'
  | 'tax'
  | 'time'
  | 'fxRate'
  | 'feeCurrency';

type Words = readonly (readonly [string, number])[];

const w = (weight: number, ...words: string[]): Words => words.map((word) => [word, weight]);

/** Words per field, with their weight (3 names the field, 1 hints at it). */
export const HEADER_WORDS: Record<HeaderField, Words> = {
  // fields only a definition names (the proposal does not choose them)
  tax: [],
  time: [],
  fxRate: [],
  feeCurrency: [],
  date: [
    ...w(3, 'date', 'datum', 'data', 'fecha', 'dato', 'datetime', 'trade date', 'tradedate'),
    ...w(3, 'transaction date', 'handelsdag', 'affarsdag', 'transaktionsdag', 'handelstag'),
    ...w(3, 'schlusstag', 'geschaftstag', 'data operazione', 'data operacji', 'data transakcji'),
    ...w(3, 'fecha operacion', 'fecha de operacion', 'date operation', 'date de transaction'),
    ...w(3, 'date d execution', 'data da operacao', 'data do negocio', 'data eseguito'),
    ...w(2, 'time', 'zeit', 'bokforingsdag', 'bogforingsdag', 'bokforingsdato', 'buchungstag'),
    ...w(2, 'buchungsdatum', 'data contabile', 'data ksiegowania', 'execution time'),
    ...w(1, 'valutadatum', 'value date', 'valuta', 'data valuta', 'fecha valor', 'likviddag'),
    ...w(1, 'operazione', 'valordag', 'oppgjorsdag', 'settledate', 'settle date', 'wertstellung'),
  ],
  action: [
    ...w(3, 'action', 'type', 'transaction type', 'transactietype', 'transaktionstyp'),
    ...w(3, 'transaksjonstype', 'transaktionstype', 'typ', 'art', 'geschaftsart', 'buchungsart'),
    ...w(3, 'vorgang', 'transaktionsart', 'operation', 'operazione', 'tipo', 'tipo operazione'),
    ...w(3, 'tipo de operacion', 'tipo de movimiento', 'tipo movimento', 'tipo de transaccion'),
    ...w(3, 'type d operation', 'nature de l operation', 'operacion', 'movimiento', 'rodzaj'),
    ...w(3, 'typ operacji', 'typ transakcji', 'rodzaj operacji', 'activity type', 'kind'),
    ...w(2, 'activity', 'mouvement', 'operacao', 'tipo de operacao', 'transaction', 'event'),
    ...w(1, 'description', 'omschrijving', 'beschreibung', 'descrizione', 'descripcion'),
    ...w(1, 'descricao', 'libelle', 'opis', 'transaktionstext', 'details', 'text'),
  ],
  symbol: [
    ...w(3, 'symbol', 'ticker', 'code', 'ticker symbol', 'tickersymbol', 'instrument symbol'),
    ...w(3, 'symbole', 'simbolo', 'symbool', 'tickersymbool', 'kod', 'kod instrumentu'),
    ...w(3, 'mnemo', 'mnemonique', 'stock code', 'instrument code', 'symbol gieldowy'),
    ...w(1, 'details'),
  ],
  isin: w(3, 'isin', 'instrument isin', 'isin code', 'codice isin', 'code isin', 'kod isin'),
  name: [
    ...w(3, 'name', 'product', 'produkt', 'instrument', 'security', 'security name', 'naam'),
    ...w(3, 'wertpapier', 'wertpapiername', 'bezeichnung', 'effect', 'nom', 'nom du titre'),
    ...w(3, 'titolo', 'nome titolo', 'strumento', 'descrizione titolo', 'nombre del valor'),
    ...w(3, 'nome', 'nome do titulo', 'ativo', 'activo', 'vardepapper', 'vaerdipapir'),
    ...w(
      3,
      'verdipapir',
      'vaerdipapirer',
      'verdipapirer',
      'papier',
      'walor',
      'nazwa',
      'nazwa waloru',
      'instrument name',
    ),
    ...w(3, 'asset', 'fund', 'fonds', 'stock', 'titre', 'valore', 'produit', 'fondsnaam'),
    ...w(1, 'nombre', 'valeur', 'valor', 'description', 'libelle', 'descrizione', 'opis'),
  ],
  quantity: [
    ...w(3, 'quantity', 'qty', 'shares', 'units', 'no of shares', 'number of shares'),
    ...w(3, 'aantal', 'anzahl', 'stuck', 'stucke', 'stuck nom', 'stucke nom', 'nominal'),
    ...w(3, 'quantite', 'parts', 'nombre de titres', 'quantita', 'azioni', 'cantidad'),
    ...w(3, 'titulos', 'acciones', 'quantidade', 'acoes', 'antal', 'antall', 'aktier', 'ilosc'),
    ...w(3, 'liczba', 'menge', 'n titoli', 'numero titoli', 'nombre de parts'),
    ...w(2, 'nombre', 'volume'),
  ],
  price: [
    ...w(3, 'price', 'unit price', 'trade price', 'tradeprice', 'price per share', 'kurs'),
    ...w(3, 'koers', 'prix', 'prix unitaire', 'cours', 'cotation', 'prezzo', 'quotazione'),
    ...w(3, 'precio', 'precio unitario', 'cotizacion', 'preco', 'cotacao', 'pris', 'cena'),
    ...w(3, 'ausfuhrungskurs', 'execution price', 'quote', 'prix d execution'),
    ...w(3, 'prezzo unitario', 'price share', 'kurs jednostkowy', 'preco unitario'),
  ],
  currency: [
    ...w(3, 'currency', 'ccy', 'wahrung', 'devise', 'divisa', 'moneda', 'moeda', 'waluta'),
    ...w(3, 'currencyprimary', 'currency primary', 'transaction currency', 'buchungswahrung'),
    ...w(3, 'valuta operazione', 'transaktionsvaluta', 'transactievaluta', 'devise du prix'),
    ...w(2, 'valuta', 'instrument currency'),
  ],
  fee: [
    ...w(3, 'fee', 'fees', 'commission', 'commissions', 'kosten', 'transactiekosten', 'gebuhr'),
    ...w(3, 'gebuhren', 'provision', 'orderprovision', 'spesen', 'frais', 'courtage'),
    ...w(3, 'commissioni', 'spese', 'comision', 'comisiones', 'gastos', 'comissao', 'comissoes'),
    ...w(3, 'avgift', 'total avgift', 'kurtasje', 'gebyr', 'gebyrer', 'prowizja', 'oplata'),
    ...w(
      3,
      'oplaty',
      'afgifter',
      'avgifter',
      'totale avgifter',
      'samlede afgifter',
      'fees comm',
      'ibcommission',
      'brokerage',
      'commission payee',
    ),
  ],
  amount: [
    ...w(3, 'amount', 'total', 'value', 'net amount', 'total amount', 'bedrag', 'waarde'),
    ...w(3, 'mutatie', 'betrag', 'umsatz', 'kurswert', 'endbetrag', 'wert', 'montant'),
    ...w(3, 'importo', 'controvalore', 'importe', 'montante', 'belopp', 'belob', 'belop'),
    ...w(3, 'kwota', 'wartosc', 'trade money', 'trademoney', 'proceeds', 'totale', 'netto'),
    ...w(3, 'montant net', 'importo netto', 'montant de l operation', 'kundenendbetrag'),
    ...w(2, 'net', 'valor', 'valeur', 'gross', 'brutto'),
  ],
  side: w(3, 'side', 'buy sell', 'segno', 'sign', 'sens', 'sentido', 'kierunek', 'richting'),
  details: [
    ...w(3, 'comment', 'comments', 'note', 'notes', 'event', 'description', 'omschrijving'),
    ...w(3, 'beschreibung', 'descrizione', 'descripcion', 'descricao', 'libelle', 'opis'),
    ...w(3, 'transaktionstext', 'details', 'kommentar', 'tekst', 'text', 'opmerking'),
  ],
  assetClass: w(
    3,
    'asset type',
    'asset class',
    'assetclass',
    'instrument type',
    'product type',
    'type d actif',
    'classe d actif',
    'tipo de activo',
    'tipo strumento',
    'anlageklasse',
    'produktart',
    'wertpapierart',
    'tipo de ativo',
    'klasa aktywow',
    'produkttyp',
  ),
  id: w(3, 'id', 'transaction id', 'transaktions id', 'transaktionsid', 'referenz', 'reference'),
};

/**
 * Words that rule a header out of the numeric fields: FX rates ("Wechselkurs", "Kurs wymiany"),
 * balances, ids and results, which hold numbers that are not a quantity, price, fee or amount.
 */
export const NOT_A_VALUE = [
  'exchange rate',
  'fx rate',
  'fx',
  'conversion rate',
  'rate',
  'wechselkurs',
  'devisenkurs',
  'valutakurs',
  'vekslingskurs',
  'vaxlingskurs',
  'wisselkoers',
  'vekselkurs',
  'rente',
  'taux de change',
  'tasso di cambio',
  'tipo de cambio',
  'taxa de cambio',
  'kurs wymiany',
  'saldo',
  'balance',
  'solde',
  'bestand',
  'equity',
  'realized equity',
  'result',
  'id',
  'order id',
  'withholding tax',
  'tax',
  'belasting',
  'steuer',
  'steuern',
  'impots',
  'tasse',
  'impuestos',
  'impostos',
  'skatt',
  'skat',
  'podatki',
  'podatek',
  'interest',
  'ranta',
  'zinsen',
  'accrued',
  'nwa',
] as const;

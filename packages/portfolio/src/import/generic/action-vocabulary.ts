/** What an action word means to the generic mapper (`unsupported`: known, but not importable). */
export type ActionMeaning =
  | 'unsupported'
  | 'shares'
  | 'fee'
  | 'dividend'
  | 'interest'
  | 'withdrawal'
  | 'deposit'
  | 'sell'
  | 'buy'
  | 'cash'
  | 'trade';

/**
 * Action words per meaning, folded, in the eleven languages; checked in this order, so that a
 * qualifier wins over the noun it qualifies ("Withholding tax" on a dividend is a fee, "Interest
 * on cash" is interest, "Reinvest Dividend" a dividend). `cash` rows move money by the sign of
 * their amount (currency conversions, transfers); `trade` rows are buys or sells by a sign.
 */
// biome-ignore format: word lists, wrapped by hand
export const ACTION_WORDS: readonly (readonly [ActionMeaning, readonly string[]])[] = [
  ['unsupported', [
    'reverse split', 'merger', 'stock merger', 'name change', 'journaled shares', 'fusion',
    'productwijziging', 'corporate action', 'transfer out', 'transfer in', 'zusammenlegung',
    'omvendt split', 'reverse',
  ]],
  ['shares', [
    'split', 'stock split', 'spin off', 'spinoff', 'stock distribution', 'stock div dist',
    'aktiesplit', 'aktienteilung', 'aktiensplit', 'frazionamento', 'scissione', 'bonus',
    'bonus shares', 'stock dividend', 'splitsing', 'fractionnement', 'desdoblamiento',
    'desdobramento', 'podzial',
  ]],
  ['fee', [
    'withholding', 'tax', 'taxes', 'quellensteuer', 'steuer', 'steuern', 'kapitalertragsteuer',
    'belasting', 'dividendbelasting', 'bronbelasting', 'impot', 'impots', 'retenue', 'ritenuta',
    'imposta', 'tasse', 'retencion', 'impuesto', 'imposto', 'retencao', 'kallskatt', 'kupongskatt',
    'kupskatt', 'skatt', 'kildeskat', 'skat', 'kildeskatt', 'podatek', 'sdrt', 'stamp duty', 'fee',
    'fees', 'commission', 'kosten', 'transactiekosten', 'gebuhr', 'gebuhren', 'provision', 'frais',
    'commissione', 'commissioni', 'spese', 'comision', 'comisiones', 'gastos', 'comissao',
    'comissoes', 'taxas', 'taxa', 'avgift', 'gebyr', 'oplata', 'prowizja', 'courtage', 'kurtasje',
    'swap',
  ]],
  ['dividend', [
    'dividend', 'dividends', 'dividende', 'dividenden', 'div', 'ausschuttung',
    'ertragsausschuttung', 'dividendo', 'dividendi', 'dividendos', 'utdelning', 'udbytte',
    'utbytte', 'dywidenda', 'cap gain', 'capital gain', 'capital gains', 'plusvalenza',
    'dividendes', 'distribution', 'distribuzione', 'cash in lieu',
  ]],
  ['interest', [
    'interest', 'interests', 'zinsen', 'zins', 'rente', 'creditrente', 'interets', 'interet',
    'interessi', 'intereses', 'juros', 'ranta', 'renter', 'renteindtaegter', 'odsetki', 'cedola',
    'cedole', 'coupon', 'kupon', 'courtesy',
  ]],
  ['withdrawal', [
    'withdrawal', 'withdraw', 'auszahlung', 'entnahme', 'onttrekking', 'opname', 'retrait',
    'prelievo', 'retiro', 'retirada', 'levantamento', 'uttag', 'haevning', 'udbetaling', 'uttak',
    'wyplata', 'wire sent', 'payout', 'cash out',
  ]],
  ['deposit', [
    'deposit', 'einzahlung', 'einlage', 'storting', 'versement', 'deposito', 'versamento',
    'ingreso', 'aporte', 'insattning', 'indsaettelse', 'indbetaling', 'innskudd', 'wplata',
    'top up', 'wire received', 'cash in', 'depot',
  ]],
  ['sell', [
    'sell', 'sale', 'sold', 'verkauf', 'verkoop', 'vente', 'vendita', 'vendi', 'venta', 'venda',
    'vender', 'vende', 'vendu', 'verkauft', 'salg', 'solgt', 'salj', 'salt', 'sald', 'sprzedaz',
    'sprzedaj', 'position closed', 'close sell', 'close buy',
  ]],
  ['buy', [
    'buy', 'bought', 'purchase', 'kauf', 'koop', 'aankoop', 'achat', 'acquisto', 'compra',
    'comprar', 'compra', 'acquisto', 'achete', 'gekauft', 'kop', 'kopt', 'kob', 'kobt', 'kjop',
    'kjopt', 'kupno', 'kup', 'zakup', 'reinvest', 'reinvest shares', 'open position', 'open buy',
    'sparplan', 'savings plan',
  ]],
  ['cash', [
    'currency conversion', 'fx', 'valutaveksling', 'valutavaxling', 'wymiana', 'devisen',
    'geldwechsel', 'cambio', 'transfer', 'overboeking', 'uberweisung', 'virement', 'bonifico',
    'transferencia', 'overforing', 'overforsel', 'przelew', 'valuta creditering',
    'valuta debitering', 'cash sweep', 'sweep', 'moneylink', 'exchange',
  ]],
  ['trade', [
    'trade', 'trades', 'transactie', 'transaction', 'transaccion', 'transacao', 'transazione',
    'transakcja', 'compravendita', 'handel', 'transaktion', 'order', 'execution', 'orden', 'ordre',
    'ordine', 'zlecenie', 'wertpapiergeschaft', 'effectentransactie', 'deal',
  ]],
];

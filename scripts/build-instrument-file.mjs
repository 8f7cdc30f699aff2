#!/usr/bin/env node
// Builds the offline instrument resolver file (issue 38) from the shared real data, so that the
// embedded default resolves the ISINs and tickers it can without any network:
//
//   node scripts/build-instrument-file.mjs [--data ../shared/data] [--check]
//
// Writes packages/use-cases/data/instruments.json (`--check`: exit 1 when it differs from what
// the data gives). Derived, deterministic (sorted keys), small. What it takes, and from where:
//
// - `isins`: ISIN → { ticker?, mic?, currency, name?, kind }, from the broker exports that name
//   both (broker-exports/export-to-ghostfolio): Trading 212 (`ISIN`, `Ticker`, `Name`, price
//   currency; the ticker most rows give wins: corporate-action rows sometimes carry another),
//   Saxo (`Instrument ISIN`, `Instrument Symbol` as `TICKER:mic`), Interactive Brokers' full
//   Flex row (ghostfolio/ok_vti-buy-on-ibkr.csv: `ISIN`, `Symbol`, `ListingExchange`,
//   `SubCategory`), and DEGIRO (`ISIN`, `Product`): a US ISIN whose product name equals exactly
//   one SEC company title (both normalised: upper case, punctuation and legal-form words such as
//   INC, CORP, CO, THE dropped) gets that company's ticker (its one ticker without a share-class
//   suffix); DEGIRO's currency column is the cash account's, not the listing's, so it is not used; other DEGIRO products keep their name
//   and kind only (no ticker: they stay unpriced, but say what they are).
// - `sec`: ticker → CIK for every entry of SEC's company_tickers.json (sec/, the newest file),
//   the "SEC's ticker list" step of the resolution for CIKs.
// - kind: `fund` when the name says ETF, UCITS, FUND, ISHARES, VANGUARD … or the row says ETF;
//   `cash` for DEGIRO's cash funds and sweep accounts; otherwise `share`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const dataIndex = args.indexOf('--data');
const data = resolve(dataIndex >= 0 ? args[dataIndex + 1] : join(root, '..', 'shared', 'data'));
const out = join(root, 'packages', 'use-cases', 'data', 'instruments.json');
const exports = join(data, 'broker-exports');

/** A minimal CSV reader: quoted fields with doubled quotes, the given delimiter. */
function readCsv(file, delimiter = ',') {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  const [header, ...body] = rows.filter((r) => r.some((x) => x.trim() !== ''));
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), (r[i] ?? '').trim()])));
}

const FUND_WORDS = /\b(ETF|UCITS|FUNDS?|ISHARES|VANGUARD|SPDR|XTRACKERS|AMUNDI|INDEX)\b/i;
const kindOf = (name, hint = '') =>
  /CASH FUND|BANKACCOUNT/i.test(name)
    ? 'cash'
    : FUND_WORDS.test(name) || /ETF|FUND/i.test(hint)
      ? 'fund'
      : 'share';

/** ISO 6166 check (letters as two digits, Luhn). */
function validIsin(isin) {
  if (!/^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(isin)) return false;
  const digits = [...isin].map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c)).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const MIC_OF = { ARCA: 'ARCX', NYSE: 'XNYS', NASDAQ: 'XNAS', AMEX: 'XASE' };
const isins = new Map();
const votes = new Map();
const put = (isin, entry, weight = 1) => {
  if (!validIsin(isin)) return;
  const prior = isins.get(isin) ?? {};
  if (entry.ticker) {
    const tally = votes.get(isin) ?? new Map();
    tally.set(entry.ticker, (tally.get(entry.ticker) ?? 0) + weight);
    votes.set(isin, tally);
  }
  isins.set(isin, {
    ...entry,
    ...prior,
    ...(prior.name ? {} : entry.name ? { name: entry.name } : {}),
  });
};

// SEC's ticker list: ticker → CIK, and titles for the DEGIRO name match
const secFile = readdirSync(join(data, 'sec'))
  .filter((f) => /^company_tickers_.*\.json$/.test(f))
  .sort()
  .at(-1);
const secList = Object.values(JSON.parse(readFileSync(join(data, 'sec', secFile), 'utf8')));
const sec = {};
for (const e of secList) {
  const ticker = String(e.ticker).toUpperCase().replaceAll('.', '-');
  if (!(ticker in sec)) sec[ticker] = Number(e.cik_str);
}
const LEGAL =
  /\b(INC|INCORPORATED|CORP|CORPORATION|CO|COMPANY|THE|LTD|PLC|NV|SA|AG|HOLDINGS?|HOLD|GROUP|CLASS [A-C]|CL [A-C])\b/g;
const norm = (name) =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, ' ')
    .replace(LEGAL, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const byTitle = new Map();
for (const e of secList) {
  const key = norm(e.title);
  const list = byTitle.get(key) ?? new Set();
  list.add(String(e.ticker).toUpperCase().replaceAll('.', '-'));
  byTitle.set(key, list);
}

// Trading 212: ISIN, Ticker, Name, price currency (trades and dividends vote twice)
for (const r of readCsv(join(exports, 'export-to-ghostfolio', 'trading212-export.csv'))) {
  if (!r.ISIN || !r.Ticker) continue;
  const action = r.Action.toLowerCase();
  const trade = / (buy|sell)$/.test(action) || action.startsWith('dividend');
  const currency = (r['Currency (Price / share)'] || '').toUpperCase();
  put(
    r.ISIN,
    {
      ticker: r.Ticker.toUpperCase(),
      ...(/^[A-Z]{3}$/.test(currency) ? { currency: currency === 'GBX' ? 'GBP' : currency } : {}),
      name: r.Name,
      kind: kindOf(r.Name),
    },
    trade ? 2 : 1,
  );
}
// Saxo: ISIN, `TICKER:mic`, currency, name
for (const r of readCsv(join(exports, 'export-to-ghostfolio', 'saxo-export.csv'))) {
  const isin = r['Instrument ISIN'];
  const [ticker, mic] = (r['Instrument Symbol'] || '').split(':');
  if (!isin || !ticker) continue;
  put(isin, {
    ticker: ticker.toUpperCase(),
    ...(mic ? { mic: mic.toUpperCase() } : {}),
    currency: r['Instrument currency'].toUpperCase(),
    name: r.Instrument,
    kind: kindOf(r.Instrument),
  });
}
// Interactive Brokers' full Flex trade row
for (const r of readCsv(join(exports, 'ghostfolio', 'ok_vti-buy-on-ibkr.csv'))) {
  if (!r.ISIN || !r.Symbol) continue;
  put(r.ISIN, {
    ticker: r.Symbol.toUpperCase(),
    ...(MIC_OF[r.ListingExchange] ? { mic: MIC_OF[r.ListingExchange] } : {}),
    currency: r.CurrencyPrimary.toUpperCase(),
    name: r.Description,
    kind: kindOf(r.Description, r.SubCategory),
  });
}
// DEGIRO: ISIN and product name; US ISINs matched to one SEC title get its ticker
for (const r of readCsv(join(exports, 'export-to-ghostfolio', 'degiro-export.csv'))) {
  const isin = r.ISIN;
  if (!isin || !r.Product || !validIsin(isin)) continue;
  const matches = isin.startsWith('US') ? byTitle.get(norm(r.Product)) : undefined;
  // one company may list several share classes (AT&T: T, T-PA, T-PC): its common stock is the
  // one ticker without a class suffix
  const common = [...(matches ?? [])].filter((t) => !t.includes('-'));
  const ticker = common.length === 1 ? common[0] : undefined;
  put(isin, {
    ...(ticker ? { ticker } : {}),
    name: r.Product,
    kind: kindOf(r.Product),
  });
}

const sorted = (object) =>
  Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));
const isinOut = {};
for (const [isin, entry] of isins) {
  const tally = votes.get(isin);
  const ticker = tally && [...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  const currency = entry.currency ?? (isin.startsWith('US') ? 'USD' : undefined);
  const { ticker: _t, currency: _c, ...rest } = entry;
  isinOut[isin] = sorted({
    ...rest,
    ...(ticker ? { ticker } : {}),
    ...(currency ? { currency } : {}),
  });
}
const file = {
  $comment:
    'Derived by scripts/build-instrument-file.mjs from ../shared/data (broker exports, SEC company_tickers); do not edit by hand.',
  sources: { sec: secFile },
  isins: sorted(isinOut),
  sec: sorted(sec),
};
const text = `${JSON.stringify(file)}\n`;
if (args.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== text) {
    console.error(`${out} is stale: run node scripts/build-instrument-file.mjs`);
    process.exit(1);
  }
  console.log(`${out} is up to date`);
} else {
  writeFileSync(out, text);
  console.log(
    `wrote ${out}: ${Object.keys(isinOut).length} ISINs, ${Object.keys(sec).length} SEC tickers, ${text.length} bytes`,
  );
}

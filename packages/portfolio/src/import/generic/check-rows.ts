import type { BrokerCsvResult } from '../import-result.js';
import type { MappedKind } from '../mapping.js';
import { UNREADABLE } from '../read-rows.js';
import type { CsvRow } from '../row.js';
import { byAction, type FileView, type Finding, list, pass } from './check-support.js';

// The checks of what rows the mapping reads (see verifyMapping).

/** The `readable` check (see `verifyMapping`). */
export function readable(file: FileView, parsed: Extract<BrokerCsvResult, { ok: true }>): Finding {
  const unreadable = parsed.skipped.filter((s) => s.message.startsWith(`${UNREADABLE}:`));
  if (unreadable.length === 0) return pass('readable', 'every row is read');
  const lines = unreadable.map((s) => s.line);
  // most of the file unread is no reading of it, whatever the rows hold
  if (unreadable.length * 2 > file.rows.length) {
    const first = unreadable[0]?.message.replace(`${UNREADABLE}: `, '') ?? '';
    return {
      id: 'readable',
      passed: false,
      detail: `${unreadable.length} of ${file.rows.length} rows cannot be read (line ${unreadable[0]?.line}: ${first})`,
      lines,
      question: {
        question: `Most rows cannot be read with this mapping (${first}): which columns hold the quantity, the price or the amount, and what do the actions mean?`,
        candidates: ['correct the mapping'],
      },
    };
  }
  const units = unreadable.filter((s) => {
    const row = file.byLine.get(s.line);
    return row !== undefined && file.movesUnits(row);
  });
  if (units.length === 0) {
    return pass(
      'readable',
      `${unreadable.length} rows cannot be read and are skipped (lines ${list(lines)}); none holds units of an instrument`,
    );
  }
  const first = units[0]?.message.replace(`${UNREADABLE}: `, '') ?? '';
  return {
    id: 'readable',
    passed: false,
    detail: `${units.length} rows that move units of an instrument cannot be read and would be skipped (line ${units[0]?.line}: ${first})`,
    lines: units.map((s) => s.line),
    question: {
      question: `Lines ${list(units.map((s) => s.line))} move units but cannot be read (${first}): which column or meaning is wrong?`,
      candidates: ['correct the mapping', 'skip them'],
    },
  };
}

/** The `widths` check (see `verifyMapping`). */
export function widths(file: FileView): Finding {
  const width = file.header.length;
  const wide = file.rows.filter(
    (r) =>
      file.kind(r) !== 'skip' &&
      r.cells.length > width &&
      r.cells.slice(width).some((c) => c.trim() !== ''),
  );
  if (wide.length === 0) return pass('widths', 'no row has more cells than the header');
  const lines = wide.map((r) => r.line);
  return {
    id: 'widths',
    passed: false,
    detail: `${wide.length} rows have more cells than the header's ${width} (lines ${list(lines)}): their values may sit under other columns`,
    lines,
    question: {
      value: file.action(wide[0] as CsvRow),
      question: `Lines ${list(lines)} have more cells than the header: are their values shifted (skip these rows and record them by hand), or read as they are?`,
      candidates: ['skip', 'read as they are'],
    },
  };
}

/** The `skipped-units` check (see `verifyMapping`). */
export function skippedUnits(file: FileView): Finding {
  const classes = new Set((file.mapping.skipClasses ?? []).map((c) => c.toLowerCase()));
  const rows = file.netUnits(
    file.rows.filter(
      (r) =>
        file.kind(r) === 'skip' &&
        !classes.has(file.get(r, 'assetClass').toLowerCase()) &&
        !file.repeatsTrade(r),
    ),
  );
  if (rows.length === 0) return pass('skipped-units', 'no skipped row moves units');
  const groups = [...byAction(rows, file)];
  const [value, first] = groups[0] ?? ['', []];
  return {
    id: 'skipped-units',
    passed: false,
    detail: `${rows.length} rows whose action is skipped move units of an instrument (${groups
      .map(([v, r]) => `"${v}" ×${r.length}`)
      .join(', ')}): the holdings would miss them`,
    lines: rows.map((r) => r.line),
    question: {
      value,
      question: `What is "${value}"? Its rows (lines ${list(first.map((r) => r.line))}) move units of an instrument, so skipping them would leave the holdings wrong`,
      candidates: ['buy', 'sell', 'trade', 'shares', 'skip'],
    },
  };
}

/** The `instruments` check (see `verifyMapping`). */
export function instruments(
  file: FileView,
  parsed: Extract<BrokerCsvResult, { ok: true }>,
): Finding {
  const lines = parsed.skipped
    .filter((s) => s.message.includes('without an instrument'))
    .map((s) => s.line);
  if (lines.length === 0) return pass('instruments', 'every trade names its instrument');
  const { symbol, isin } = file.mapping.columns;
  if (symbol !== undefined || isin !== undefined) {
    return pass(
      'instruments',
      `${lines.length} trades with an empty instrument cell are skipped as currency trades (lines ${list(lines)})`,
    );
  }
  const names = [file.mapping.columns.name, file.mapping.columns.symbol].filter(
    (c): c is string => c !== undefined,
  );
  return {
    id: 'instruments',
    passed: false,
    detail: `${lines.length} trades name no instrument the mapping reads (lines ${list(lines)}) and would be skipped`,
    lines,
    question: {
      field: 'symbol',
      question: `Which column names the instrument of the trades on lines ${list(lines)}?`,
      candidates: names,
    },
  };
}

const CASH_KINDS = new Set<MappedKind | undefined>([
  'deposit',
  'withdrawal',
  'interest',
  'fee',
  'cash',
  'tax',
  'charge',
]);

/** The `units-in-cash-rows` check (see `verifyMapping`). */
export function unitsInCashRows(file: FileView): Finding {
  const rows = file.netUnits(file.rows.filter((r) => CASH_KINDS.has(file.kind(r))));
  if (rows.length === 0) {
    return pass('units-in-cash-rows', 'no row recorded as cash moves units');
  }
  const groups = [...byAction(rows, file)];
  const [value, first] = groups[0] ?? ['', []];
  const kind = first[0] ? file.kind(first[0]) : undefined;
  return {
    id: 'units-in-cash-rows',
    passed: false,
    detail: `${rows.length} rows recorded as cash carry units of an instrument (${groups
      .map(([v, r]) => `"${v}" ×${r.length}`)
      .join(', ')}): the units would not reach the holdings`,
    lines: rows.map((r) => r.line),
    question: {
      value,
      question: `"${value}" is read as ${kind}, but its rows (lines ${list(first.map((r) => r.line))}) carry units of an instrument: are they purchases or sales?`,
      candidates: ['trade', 'buy', 'sell', 'shares', kind ?? 'cash'],
    },
  };
}

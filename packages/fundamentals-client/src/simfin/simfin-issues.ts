import type { DataIssue, FiscalYearFigures } from '@svc/schemas';
import type { SimfinCompanyRows } from './columns.js';

// Data issues of the SimFin mapping that concern a whole company rather than one cell.

/** A `missing_year` issue for each label absent between two consecutive years. */
export function reportGaps(years: readonly FiscalYearFigures[], issues: DataIssue[]): void {
  for (let i = 1; i < years.length; i++) {
    const prev = years[i - 1];
    const cur = years[i];
    if (!prev || !cur) continue;
    for (let label = prev.fiscalYear + 1; label < cur.fiscalYear; label++) {
      issues.push({
        fiscalYear: label,
        metric: null,
        kind: 'missing_year',
        message: `No SimFin annual row for FY${label} between the periods ending ${prev.periodEnd} and ${cur.periodEnd}`,
      });
    }
  }
}

/** One issue listing the years whose Gross Profit only repeated Revenue (left null). */
export function reportGrossProfitFillers(labels: readonly number[], issues: DataIssue[]): void {
  if (labels.length === 0) return;
  issues.push({
    fiscalYear: null,
    metric: 'grossProfit',
    kind: 'other',
    message: `SimFin has no Cost of Revenue and repeats Revenue as Gross Profit in FY${labels.join(', FY')}; gross profit left null there`,
  });
}

/** One issue counting cells that were neither blank nor a number. */
export function reportMalformed(rows: SimfinCompanyRows, issues: DataIssue[]): void {
  const all = [...rows.income, ...rows.balance, ...rows.cashflow];
  const count = all.reduce((n, row) => n + row.malformedCells, 0);
  if (count === 0) return;
  issues.push({
    fiscalYear: null,
    metric: null,
    kind: 'other',
    message: `${count} SimFin cell(s) were neither blank nor a number; read as missing`,
  });
}

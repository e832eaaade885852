// The SYNTHETIC corpus the benchmarks build from: invented figures in the data/ format, labelled as
// such in every file, written to a temp dir, never served or committed. Every monthly report prints
// its month and restates the `vintages - 1` months before it; every figure is exact as written.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SyntheticShape {
  states: readonly string[];
  /** Lines per state; 0 writes statewide all-lines figures instead. */
  lines: number;
  years: number;
  vintages: number;
}

const CATEGORIES = ['Commercial Property', 'Personal Property', 'General Liability', 'Excess & Umbrella', 'Cyber'];
/** The 15 stamping-office states. */
const OFFICE_STATES = ['AZ', 'CA', 'FL', 'ID', 'IL', 'MN', 'MS', 'NC', 'NV', 'NY', 'OR', 'PA', 'TX', 'UT', 'WA'];

/**
 * `count` state codes: the 15 stamping-office states first, then invented two-letter codes (AA, AB, ...),
 * so a corpus can grow by states while each state, and so the largest, stays the same size.
 */
export function syntheticStates(count: number): string[] {
  if (count > 26 * 26) throw new Error(`${count} states: there are only ${26 * 26} two-letter codes`);
  const codes = OFFICE_STATES.slice(0, count);
  for (let a = 65; codes.length < count; a++)
    for (let b = 65; b <= 90 && codes.length < count; b++) {
      const code = String.fromCharCode(a, b);
      if (!OFFICE_STATES.includes(code)) codes.push(code);
    }
  return codes;
}
const FIRST_YEAR = 2006;

export function generateSynthetic(dir: string, { states, lines, years, vintages }: SyntheticShape): void {
  const synthetic = '# SYNTHETIC benchmark data: invented figures, never served or committed\n';
  mkdirSync(join(dir, 'lines'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), synthetic);
  writeFileSync(
    join(dir, 'states.csv'),
    'code,name,stamping_office,acronym,name_confirmed,website,office_source_url\n' +
      states
        .map((s) => `${s},Synthetic ${s},SYNTHETIC benchmark office ${s},,unconfirmed,,https://example.invalid/${s}`)
        .join('\n') +
      '\n',
  );
  writeFileSync(
    join(dir, 'bases.csv'),
    'state,period_type,basis,note\n' + states.map((s) => `${s},month,SYNTHETIC premium,`).join('\n') + '\n',
  );
  writeFileSync(
    join(dir, 'categories.csv'),
    'category,description\n' + CATEGORIES.map((c) => `${c},synthetic`).join('\n') + '\n',
  );
  const ids: string[] = ['id,state,source_code'];
  let id = 1;
  for (const s of states) {
    const rows = ['source_code,name,category,source_url,note'];
    for (let l = 0; l < lines; l++) {
      rows.push(
        `${1000 + l},Synthetic line ${l},${CATEGORIES[l % CATEGORIES.length]},https://example.invalid,SYNTHETIC`,
      );
      ids.push(`${id++},${s},${1000 + l}`);
    }
    if (lines) writeFileSync(join(dir, 'lines', `${s}.csv`), rows.join('\n') + '\n');
  }
  writeFileSync(join(dir, 'line-ids.csv'), ids.join('\n') + '\n');

  const months: [number, number][] = [];
  for (let y = FIRST_YEAR; y < FIRST_YEAR + years; y++) for (let m = 1; m <= 12; m++) months.push([y, m]);
  const key = ([y, m]: [number, number]) => `${y}-${String(m).padStart(2, '0')}`;
  const lineCodes = lines ? Array.from({ length: lines }, (_, l) => String(1000 + l)) : ['all'];
  for (const s of states) {
    const pubDir = join(dir, 'publications', s.toLowerCase());
    mkdirSync(pubDir, { recursive: true });
    months.forEach((month, i) => {
      const [y, m] = month;
      const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
      const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      const rows: string[] = [];
      for (let v = 0; v < vintages && i - v >= 0; v++) {
        const period = key(months[i - v]);
        const bump = 1 + v * 0.001; // each restatement moves the figures a little
        lineCodes.forEach((code, l) => {
          rows.push(`${s},${period},${code},,,premium,${(123456.78 * (l + 1) * bump + i).toFixed(2)},,,SYNTHETIC`);
          rows.push(
            `${s},${period},${code},,,policies,${(Math.round(1001 * (l + 1) * bump) + i) * 10 + 7},,,SYNTHETIC`,
          ); // printed to the unit
        });
      }
      const header = [
        `# publisher: SYNTHETIC`,
        `# source: SYNTHETIC ${s}`,
        `# title: SYNTHETIC ${key(month)}`,
        `# url: https://example.invalid/${s}/${key(month)}`,
        `# report_date: ${next}`,
        `# report_date_basis: estimated: synthetic`,
        `# data_as_of: ${last}`,
        `# rows: ${rows.length}`,
        'state,period,line,county,insurer,metric,value,qualifier,printed,note',
      ];
      writeFileSync(join(pubDir, `${key(month)}.csv`), [...header, ...rows].join('\n') + '\n');
    });
  }
}

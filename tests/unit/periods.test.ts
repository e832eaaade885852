// api/periods.ts: the five period forms of data/README.md and the calendar arithmetic of the roll-ups.
import { describe, expect, it } from 'vitest';
import { firstMonthKey, isIsoDate, lastDay, monthsOf, parsePeriod, rollupKey } from '../../domain/periods.ts';

const p = (text: string) => {
  const period = parsePeriod(text);
  if (!period) throw new Error(`expected ${text} to parse`);
  return period;
};

describe('parsePeriod', () => {
  it('reads a month YYYY-MM', () => {
    expect(parsePeriod('2024-07')).toEqual({ type: 'month', key: '2024-07', year: 2024, firstMonth: 7, lastMonth: 7 });
    expect(parsePeriod('2023-12')).toEqual({
      type: 'month',
      key: '2023-12',
      year: 2023,
      firstMonth: 12,
      lastMonth: 12,
    });
  });

  it('reads a quarter YYYY-Qn: months 3n-2 .. 3n', () => {
    expect(parsePeriod('2024-Q1')).toEqual({
      type: 'quarter',
      key: '2024-Q1',
      year: 2024,
      firstMonth: 1,
      lastMonth: 3,
    });
    // Q3: 3*3-2 = 7 .. 3*3 = 9
    expect(parsePeriod('2024-Q3')).toEqual({
      type: 'quarter',
      key: '2024-Q3',
      year: 2024,
      firstMonth: 7,
      lastMonth: 9,
    });
    expect(parsePeriod('2023-Q4')).toEqual({
      type: 'quarter',
      key: '2023-Q4',
      year: 2023,
      firstMonth: 10,
      lastMonth: 12,
    });
  });

  it('reads a half-year YYYY-H1 / YYYY-H2', () => {
    expect(parsePeriod('2024-H1')).toEqual({
      type: 'half_year',
      key: '2024-H1',
      year: 2024,
      firstMonth: 1,
      lastMonth: 6,
    });
    expect(parsePeriod('2024-H2')).toEqual({
      type: 'half_year',
      key: '2024-H2',
      year: 2024,
      firstMonth: 7,
      lastMonth: 12,
    });
  });

  it('reads a year YYYY', () => {
    expect(parsePeriod('2023')).toEqual({ type: 'year', key: '2023', year: 2023, firstMonth: 1, lastMonth: 12 });
  });

  it('reads a year to date YYYY-01..MM', () => {
    expect(parsePeriod('2024-01..07')).toEqual({
      type: 'year_to_date',
      key: '2024-01..07',
      year: 2024,
      firstMonth: 1,
      lastMonth: 7,
    });
    expect(parsePeriod('2024-01..12')).toEqual({
      type: 'year_to_date',
      key: '2024-01..12',
      year: 2024,
      firstMonth: 1,
      lastMonth: 12,
    });
  });

  it.each([
    ['2024-13', 'month 13'],
    ['2024-00', 'month 00'],
    ['2024-Q5', 'quarter 5'],
    ['2024-Q0', 'quarter 0'],
    ['2024-H3', 'half 3'],
    ['2024-H0', 'half 0'],
    ['2024-02..05', 'a year to date that does not start in January'],
    ['2024-01..13', 'a year to date ending in month 13'],
    ['2024-01..00', 'a year to date ending in month 00'],
    ['24-01', 'a two-digit year'],
    ['2024-1', 'a one-digit month'],
    ['2024-q1', 'a lowercase q'],
    ['2024-01-01', 'a date'],
    [' 2024-01', 'leading space'],
    ['', 'empty'],
  ])('rejects %s (%s)', (text) => {
    expect(parsePeriod(text)).toBeNull();
  });
});

describe('monthsOf', () => {
  it('lists the months a period covers', () => {
    expect(monthsOf(p('2024-02'))).toEqual(['2024-02']);
    expect(monthsOf(p('2024-Q3'))).toEqual(['2024-07', '2024-08', '2024-09']);
    expect(monthsOf(p('2024-H1'))).toEqual(['2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06']);
    expect(monthsOf(p('2024-01..03'))).toEqual(['2024-01', '2024-02', '2024-03']);
    const year = monthsOf(p('2023'));
    expect(year).toHaveLength(12);
    expect(year[0]).toBe('2023-01');
    expect(year[8]).toBe('2023-09'); // zero-padded
    expect(year[11]).toBe('2023-12');
  });
});

describe('lastDay', () => {
  it('is the last calendar day of the period, leap years included', () => {
    expect(lastDay(p('2024-02'))).toBe('2024-02-29'); // 2024 divisible by 4
    expect(lastDay(p('2023-02'))).toBe('2023-02-28');
    expect(lastDay(p('1900-02'))).toBe('1900-02-28'); // divisible by 100, not by 400
    expect(lastDay(p('2000-02'))).toBe('2000-02-29'); // divisible by 400
    expect(lastDay(p('2024-04'))).toBe('2024-04-30');
    expect(lastDay(p('2024-01'))).toBe('2024-01-31');
    expect(lastDay(p('2024-Q1'))).toBe('2024-03-31');
    expect(lastDay(p('2024-Q2'))).toBe('2024-06-30');
    expect(lastDay(p('2024-H1'))).toBe('2024-06-30');
    expect(lastDay(p('2024-H2'))).toBe('2024-12-31');
    expect(lastDay(p('2023'))).toBe('2023-12-31');
    expect(lastDay(p('2024-01..02'))).toBe('2024-02-29');
  });
});

describe('firstMonthKey', () => {
  it('is the first month of the period (what from/to compare against)', () => {
    expect(firstMonthKey(p('2024-Q3'))).toBe('2024-07');
    expect(firstMonthKey(p('2024-H2'))).toBe('2024-07');
    expect(firstMonthKey(p('2024'))).toBe('2024-01');
  });
});

describe('rollupKey', () => {
  it('maps a month to its quarter', () => {
    expect(rollupKey('2024-01', 'quarter')).toBe('2024-Q1');
    expect(rollupKey('2024-03', 'quarter')).toBe('2024-Q1');
    expect(rollupKey('2024-04', 'quarter')).toBe('2024-Q2');
    expect(rollupKey('2024-09', 'quarter')).toBe('2024-Q3');
    expect(rollupKey('2024-10', 'quarter')).toBe('2024-Q4');
    expect(rollupKey('2024-12', 'quarter')).toBe('2024-Q4');
  });
  it('maps a month to its year', () => {
    expect(rollupKey('2024-01', 'year')).toBe('2024');
    expect(rollupKey('2023-12', 'year')).toBe('2023');
  });
});

describe('isIsoDate', () => {
  // 0099-12-31 and 0004-02-29: Date.UTC would read years 0-99 as 1900-1999.
  it.each([
    '2024-02-29',
    '2000-02-29',
    '2024-01-31',
    '2023-12-31',
    '2024-04-30',
    '0099-12-31',
    '0004-02-29',
    '0000-01-01',
  ])('accepts %s', (d) => {
    expect(isIsoDate(d)).toBe(true);
  });
  it.each([
    '2023-02-29', // 2023 is not a leap year
    '1900-02-29', // nor is 1900
    '0099-02-29', // nor is 99
    '2024-02-30',
    '2024-04-31',
    '2024-01-32',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '2024-1-01',
    '20240101',
    '2024-01-01T00:00:00Z',
    '',
  ])('rejects %s', (d) => {
    expect(isIsoDate(d)).toBe(false);
  });
});

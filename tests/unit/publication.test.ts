// ingest/sources/publication.ts: the "exact as written" rule of data/README.md.
import { describe, expect, it } from 'vitest';
import { isExactAsWritten, significantDigits } from '../../ingest/sources/publication.ts';

describe('significantDigits', () => {
  it.each([
    ['1240000000', 3], // "$1.24B": 1,2,4; trailing zeros of a whole number are not significant
    ['946170000', 5], // 9,4,6,1,7
    ['1600000000', 2], // 1,6
    ['1200000', 2],
    ['513', 3],
    ['510', 2],
    ['1000', 1],
    ['1001', 4],
    ['0.50', 2], // leading zero is not significant, the trailing zero after the point is
    ['0.001', 1],
    ['12.5', 3],
    ['-12.5', 3], // the sign is not a digit
    ['100.0', 4], // 1,0,0,0: zeros after the point count
    ['3456789.00', 9], // 3456789 (7) + 00 (2)
    ['1111111.11', 9],
    ['9876543210', 9], // the trailing 0 of a whole number is dropped
  ])('%s has %i', (text, n) => {
    expect(significantDigits(text)).toBe(n);
  });
});

describe('isExactAsWritten', () => {
  it.each([
    ['946170000', true], // 5 significant digits
    ['1111111.11', true],
    ['1001', true], // 4 significant digits
    ['1000.0', true], // 5 significant digits
    ['513', true], // whole number printed to a non-zero units digit
    ['7', true],
    ['-513', true],
    ['1240000000', false], // 3 significant digits: "$1.24B"
    ['1600000000', false], // 2
    ['1200000', false], // 2: "$1.2M"
    ['1000', false], // 1
    ['510', false], // 2, units digit zero
    ['12.5', false], // 3 significant digits and not a whole number
    ['0.50', false], // 2
  ])('%s → %s', (text, exact) => {
    expect(isExactAsWritten(text)).toBe(exact);
  });
});

// ingest/sources/values.ts: the "exact as written" rule and the plausibility bounds of data/README.md.
import { describe, expect, it } from 'vitest';
import { isExactAsWritten, significantDigits, valueProblem } from '../../ingest/sources/values.ts';

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

describe('valueProblem: the bounds, at their edges', () => {
  it.each([
    ['9999999999999.99', 'premium', null], // the largest amount: just below 1e13, 15 significant digits
    ['10000000000000.00', 'premium', 'not a plausible amount'],
    ['-0.01', 'insurer_premium', 'cannot be negative'],
    ['1234.5', 'premium', null],
    ['1234.567', 'premium', 'at most 2 decimals'],
    ['999999999', 'policies', null],
    ['1000000000', 'transactions', 'not a plausible count'],
    ['-7', 'items', 'cannot be negative'],
    ['7.0', 'insurer_policies', 'whole number'],
    ['100', 'renewal_policy_pct', null],
    ['100.01', 'renewal_policy_pct', 'a share must be 0-100'],
    ['33.333333333333336', 'new_business_policy_pct', null], // 17 digits, but exactly what a double prints back
    ['33.3333333333333333', 'new_business_policy_pct', 'cannot be held exactly'],
    ['1e5', 'premium', 'not a number'],
  ] as const)('%s as %s → %s', (raw, metric, says) => {
    const problem = valueProblem(raw, metric, false);
    if (says === null) expect(problem).toBeNull();
    else expect(problem).toContain(says);
  });
});

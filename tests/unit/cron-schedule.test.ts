// Vercel's cron schedule for the channels' claims (src/vercel-crons.ts): about every X402_CLAIM_INTERVAL_S, never
// more often than asked, as a schedule Vercel takes (minutes dividing an hour, hours dividing a day).
import { describe, expect, it } from 'vitest';
import { cronSchedule } from '../../src/vercel-crons.ts';

describe('cronSchedule', () => {
  it('runs every N minutes where N divides an hour, at most the interval apart', () => {
    expect(cronSchedule(60)).toBe('*/1 * * * *');
    expect(cronSchedule(600)).toBe('*/10 * * * *');
    expect(cronSchedule(25 * 60)).toBe('*/20 * * * *');
    expect(cronSchedule(10)).toBe('*/1 * * * *');
  });
  it('runs hourly, every few hours, or daily beyond', () => {
    expect(cronSchedule(3600)).toBe('0 * * * *');
    expect(cronSchedule(5 * 3600)).toBe('0 */4 * * *');
    expect(cronSchedule(12 * 3600)).toBe('0 */12 * * *');
    expect(cronSchedule(86_400)).toBe('0 0 * * *');
  });
});

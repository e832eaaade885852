// The fields x402's EVM payment payloads are made of, for each scheme's schema of its own payload (./exact.ts,
// ./batch.ts): hex strings, addresses, 32-byte values, and whole numbers written in decimal up to uint256.
import { z } from 'zod';

export const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
export const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
export const whole = z.string().regex(/^\d{1,78}$/);

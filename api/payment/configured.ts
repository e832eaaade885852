// The gate the service runs with: made from the environment on first use (none without X402_PAY_TO,
// so priced routes are free). Tests install their own.
import { type FacilitatorClient, HTTPFacilitatorClient } from '@x402/core/server';
import { ROUTE_CONTRACTS } from '../../domain/contract.ts';
import { type Gate, createGate } from './gate.ts';
import { type FacilitatorSettings, paymentSettings } from './settings.ts';

let current: Promise<Gate | null> | undefined;

export const configuredGate = (): Promise<Gate | null> => (current ??= gateFromEnv());

/** Replaces the configured gate (null: off); `undefined` goes back to the environment's on next use. */
export function installGate(gate: Gate | null | undefined): void {
  current = gate === undefined ? undefined : Promise.resolve(gate);
}

async function gateFromEnv(): Promise<Gate | null> {
  const settings = paymentSettings();
  return settings && createGate(settings, await facilitatorClient(settings.facilitator), ROUTE_CONTRACTS);
}

async function facilitatorClient(settings: FacilitatorSettings): Promise<FacilitatorClient> {
  if (settings.kind === 'url') return new HTTPFacilitatorClient({ url: settings.url, timeoutMs: settings.timeoutMs });
  // Coinbase's hosted facilitator signs each call with a short-lived JWT made from the CDP API key.
  const { createFacilitatorConfig } = await import('@coinbase/x402');
  return new HTTPFacilitatorClient({ ...createFacilitatorConfig(settings.apiKeyId, settings.apiKeySecret), timeoutMs: settings.timeoutMs });
}

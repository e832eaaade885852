// /v1/publications: the listing the ingest precomputed (one state's, or every state's newest first),
// and, with `since`, that listing cut to the publications of report_date on or after it, in its order.
import { type PublicationsParams } from '../../domain/contract-params.ts';
import { type PublicationsResponse } from '../../domain/contract.ts';
import { freeStateBody, requiredFreeBody } from '../store.ts';
import { publicationsRoute } from '../../domain/route-contracts.ts';
import { freeOperation } from '../operation.ts';

/** Each listing parsed once per body the store keeps (forgotten with it). */
const parsed = new WeakMap<Uint8Array, PublicationsResponse>();

function listingOf(bytes: Buffer<ArrayBuffer>): PublicationsResponse {
  let listing = parsed.get(bytes);
  if (!listing) parsed.set(bytes, (listing = JSON.parse(bytes.toString('utf8')) as PublicationsResponse));
  return listing;
}

function publicationsBody({ state, since }: PublicationsParams): Buffer<ArrayBuffer> {
  const bytes = state ? freeStateBody('publications', state) : requiredFreeBody('publications/all.json');
  if (!since) return bytes;
  const listing = listingOf(bytes);
  const kept = listing.publications.filter((p) => p.report_date >= since);
  // Nothing older than since: the listing itself, byte for byte.
  if (kept.length === listing.publications.length) return bytes;
  const body: PublicationsResponse = {
    ...listing,
    report_dates: listing.report_dates.filter((d) => d >= since),
    publications: kept,
  };
  // Written as the ingest writes the listings (JSON and a newline).
  return Buffer.from(JSON.stringify(body) + '\n');
}

export const publications = freeOperation(publicationsRoute, publicationsBody);

// How a snapshot page names itself: its title, the line a reader cites it with, and its schema.org
// Dataset description for search engines.
import type { Snapshot } from './model.ts';

const PUBLISHER = 'Surplus Lines Market Data';

export const pageTitle = (s: Snapshot) => `Surplus lines market snapshot: ${s.label}`;

export function citation(s: Snapshot, url: string): string {
  return `${PUBLISHER}. “${pageTitle(s)}”, figures as published by ${s.asOf}. ${url}`;
}

export function datasetJsonLd(s: Snapshot, url: string, csvUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: pageTitle(s),
    description: s.headline,
    url,
    datePublished: s.asOf,
    temporalCoverage: s.month,
    spatialCoverage: { '@type': 'Place', name: 'United States' },
    creator: { '@type': 'Organization', name: PUBLISHER },
    isAccessibleForFree: true,
    isBasedOn: s.publications.map((p) => p.url),
    variableMeasured: ['surplus lines premium', 'policy count', 'change in premium from a year earlier'],
    distribution: [{ '@type': 'DataDownload', encodingFormat: 'text/csv', contentUrl: csvUrl }],
  };
}

// GET /v1/bulk/premium.csv and /v1/bulk/premium.parquet (5.00 USD each): the whole premium table, every
// vintage, as the ingest wrote it (ingest/bulk.ts), served as the contract's `download` says.
import { bulkParams } from '../../domain/contract-bulk.ts';
import { ROUTE_CONTRACTS } from '../../domain/contract.ts';
import { pricedFile } from '../http.ts';
import { pricedFileOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { ShardError, privateFile } from '../store.ts';

function bulkFile(name: string): Uint8Array<ArrayBuffer> {
  const bytes = privateFile(`bulk/${name}`);
  if (!bytes) throw new ShardError(`private/bulk/${name} is not in the build: run the ingest`);
  return bytes;
}

/** The table holds a figure when its CSV has a line after the header (both files are the same rows): else the download is not charged. */
const holdsFigures = () => {
  const csv = bulkFile('premium.csv');
  const end = csv.indexOf(0x0a);
  return end >= 0 && end < csv.length - 1;
};

const bulkOperation = (path: string) => {
  const { download } = ROUTE_CONTRACTS.find((r) => r.path === path)!;
  return pricedFileOperation(path, bulkParams, () => ({ ...pricedFile(bulkFile(download!.fileName), download!), hasFigures: holdsFigures() }));
};

export const bulkPremiumCsv = bulkOperation('/v1/bulk/premium.csv');
export const bulkPremiumParquet = bulkOperation('/v1/bulk/premium.parquet');
export const getBulkPremiumCsv = pricedRoute(bulkPremiumCsv);
export const getBulkPremiumParquet = pricedRoute(bulkPremiumParquet);

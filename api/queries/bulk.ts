// The bulk downloads (5.00 USD each): the whole premium table, every vintage, as the ingest wrote it
// (ingest/bulk.ts), served as the contract's `download` says.
import type { RouteContract } from '../../domain/route-contracts.ts';
import { bulkCsvRoute, bulkParquetRoute } from '../../domain/route-contracts.ts';
import { pricedFile } from '../responses.ts';
import { pricedFileOperation } from '../operation.ts';
import { ShardError, privateFile } from '../store.ts';

function bulkFile(name: string): Buffer<ArrayBuffer> {
  const bytes = privateFile(`bulk/${name}`);
  if (!bytes) throw new ShardError(`private/bulk/${name} is not in the build: run the ingest`);
  return bytes;
}

/**
 * The table holds a figure when its CSV has a line after the header (both files are the same rows): else the download
 * is not charged.
 */
const holdsFigures = () => {
  const csv = bulkFile('premium.csv');
  const end = csv.indexOf(0x0a);
  return end >= 0 && end < csv.length - 1;
};

const bulkOperation = (contract: RouteContract<typeof bulkCsvRoute.params>) =>
  pricedFileOperation(contract, () => ({
    body: pricedFile(bulkFile(contract.download!.fileName), contract.download!),
    hasFigures: holdsFigures(),
  }));

export const bulkCsv = bulkOperation(bulkCsvRoute);
export const bulkParquet = bulkOperation(bulkParquetRoute);

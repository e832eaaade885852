import type { APIRoute } from 'astro';
import { type Snapshot, allSnapshots } from '../../../snapshots/model.ts';
import { snapshotCsv } from '../../../snapshots/csv.ts';

export const prerender = true;

export async function getStaticPaths() {
  return (await allSnapshots()).map((snapshot) => ({ params: { month: snapshot.month }, props: { snapshot } }));
}

export const GET: APIRoute = ({ props }) =>
  new Response(snapshotCsv((props as { snapshot: Snapshot }).snapshot), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
  });

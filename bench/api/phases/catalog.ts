/**
 * Phase 8: the registration pickers (ADR 010), region levels and the industry tree, signed and public.
 */
import { signRequest } from '@portal/contracts/node-signing';
import { round } from '../../common.js';
import { measureGets, type Envelope, type Portal } from '../client.js';
import { INDUSTRY_TREE_PATH, log, REGION_CODES, REGION_PATH } from '../settings.js';

/**
 * The registration pickers (ADR 010), public but signed like every /api call: the region levels
 * (answered from the index `regions.ts` keeps in memory) with `qhCode` cycling over REGION_CODES,
 * and the whole industry tree (cached in process for 60 s). Both also spend a nonce in PostgreSQL.
 */
export async function benchCatalog(portal: Portal) {
  // What each answer holds, and the industry tree's size as sent (the API does not compress).
  const regionPaths = REGION_CODES.map((code) => `${REGION_PATH}?${new URLSearchParams({ qhCode: code })}`);
  const answers: Array<{ code: string; nodes: number; bytes: number }> = [];
  for (const [i, path] of regionPaths.entries()) {
    const res = await fetch(portal.base + path, {
      headers: { 'accept-encoding': 'identity', ...signRequest(portal.secret, path, null) },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const body = JSON.parse(bytes.toString('utf8')) as Envelope<Array<{ code: string }>>;
    if (res.status !== 200 || body.status !== 200 || body.data.length === 0) {
      throw new Error(`${path}: HTTP ${res.status}, ${bytes.toString('utf8').slice(0, 200)}`);
    }
    answers.push({ code: REGION_CODES[i]!, nodes: body.data.length, bytes: bytes.length });
  }
  if (answers[0]!.nodes !== 34) throw new Error(`regionTreeListByCode?qhCode=0 gave ${answers[0]!.nodes} provinces`);
  const treeRes = await fetch(portal.base + INDUSTRY_TREE_PATH, {
    headers: { 'accept-encoding': 'identity', ...signRequest(portal.secret, INDUSTRY_TREE_PATH, null) },
  });
  const treeBytes = Buffer.from(await treeRes.arrayBuffer());
  interface TreeNode {
    children?: TreeNode[];
  }
  const tree = JSON.parse(treeBytes.toString('utf8')) as Envelope<TreeNode[]>;
  if (treeRes.status !== 200 || tree.status !== 200) {
    throw new Error(`indTree: HTTP ${treeRes.status}, ${treeBytes.toString('utf8').slice(0, 200)}`);
  }
  const countNodes = (list: TreeNode[]): number => list.reduce((n, node) => n + 1 + countNodes(node.children ?? []), 0);
  const industry = {
    nodes: countNodes(tree.data),
    sections: tree.data.length,
    bytes: treeBytes.length,
    kb: round(treeBytes.length / 1024, 1),
    contentEncoding: treeRes.headers.get('content-encoding'),
  };
  const regions = {
    codes: [...REGION_CODES],
    answers,
    meanBytes: round(answers.reduce((n, a) => n + a.bytes, 0) / answers.length, 0),
  };
  log(
    `catalog: regions, code (nodes) ${answers.map((a) => `${a.code} (${a.nodes})`).join(', ')}; ${regions.meanBytes} bytes per answer on average`,
  );
  log(`catalog: indTree ${industry.nodes} nodes (${industry.sections} sections), ${industry.kb} KB without gzip`);

  // A non-empty list in the success envelope (body chunks are joined as text, so no length check).
  const okList = (b: string) => b.startsWith('{"status":200,') && b.includes('"isLeaf":') && b.endsWith(']}');
  const regionRun = await measureGets(portal, `regions (${REGION_CODES.length} codes in turn)`, regionPaths, okList);
  const industryRun = await measureGets(portal, 'indTree', [INDUSTRY_TREE_PATH], okList);
  return { regions: { ...regions, run: regionRun }, industries: { ...industry, run: industryRun } };
}

/**
 * The mean stack profile at 20G for bench/notes/results.md ("20G: pyramid stacking"): the 20G table and the article's
 * table, both playing the rule set tgm20g, and the article's table in its own (classic) game for contrast.
 * Writes bench/notes/stack-profile-20g.svg and bench/results/stack-profile-20g.json.
 *
 *   npx tsx bench/stack-profile.ts [--pieces 20000] [--lookahead 1] [--seed 2009]
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOrBuildCachedTable } from '../src/rank/cache.js';
import { stackProfile, stackProfileSvg } from '../src/stacking-ai/profile.js';
import { benchArgs, machine, writeResults } from './common.js';

const { values: args } = benchArgs(import.meta.url, {
  pieces: { type: 'string', default: '20000' },
  lookahead: { type: 'string', default: '1' },
  seed: { type: 'string', default: '2009' },
});
const common = { pieces: Number(args.pieces), lookahead: Number(args.lookahead), seed: Number(args.seed) };
const twentyG = (await loadOrBuildCachedTable({ gravity: '20G' })).table;
const article = (await loadOrBuildCachedTable({})).table;
const runs = [
  { label: '20G table, tgm20g', table: twentyG, rules: 'tgm20g' as const },
  { label: 'article table, tgm20g', table: article, rules: 'tgm20g' as const },
  { label: 'article table, classic', table: article, rules: 'classic' as const },
];
const profiles = [];
for (const run of runs) {
  const profile = await stackProfile({ ...common, table: run.table, rules: run.rules });
  console.log(run.label, profile.meanAboveLowest.map((v) => v.toFixed(2)).join(' '), `(${profile.deaths} deaths)`);
  profiles.push({ label: run.label, profile });
}
const svg = stackProfileSvg(
  `Mean stack profile, tgm1 pieces, lookahead ${common.lookahead}, ${common.pieces.toLocaleString('en-US')} pieces each`,
  profiles,
);
const out = join(dirname(fileURLToPath(import.meta.url)), 'notes', 'stack-profile-20g.svg');
writeFileSync(out, svg);
console.log(`wrote ${out}`);
console.log(
  `wrote ${writeResults('stack-profile-20g', { date: new Date().toISOString(), machine: machine(), ...common, randomizer: 'tgm1', profiles })}`,
);

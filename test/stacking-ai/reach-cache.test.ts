/**
 * Reach records on disk (src/stacking-ai/reach-cache.ts): written once, read back equal, and a file that is damaged,
 * of another version or for another request is derived again and replaced, never trusted.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StackRankError } from '../../src/errors.js';
import { checksum } from '../../src/rank/file.js';
import { RULE_SETS } from '../../src/rules/rule-sets.js';
import { placementTable } from '../../src/stacking-ai/placements.js';
import {
  REACH_FILE_VERSION,
  type ReachFileKey,
  cachedReachTable,
  decodeReachFile,
  encodeReachFile,
  loadOrDeriveReach,
  reachFileName,
} from '../../src/stacking-ai/reach-cache.js';
import { type ReachTable, reachTable } from '../../src/stacking-ai/reach.js';

const W = 6;
const HEIGHT = 20;
const placements = placementTable(W).placements;
const key: ReachFileKey = {
  ruleSet: RULE_SETS.tgm20g,
  width: W,
  maxStep: 4,
  boardHeight: HEIGHT,
  placementCount: placements.length,
};
let derived: ReachTable;
let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  derived = reachTable('tgm20g', W, 4, HEIGHT, placements)!;
  dir = mkdtempSync(join(os.tmpdir(), 'stackrank-reach-'));
  env = { XDG_CACHE_HOME: dir };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const path = () => join(dir, 'stackrank', reachFileName(key));

/** loadOrDeriveReach with a derivation that counts its calls. */
async function load(): Promise<{ table: ReachTable | null; derivations: number; cached: boolean; rejected?: string }> {
  let derivations = 0;
  const r = await loadOrDeriveReach(
    key,
    async () => {
      derivations++;
      return derived;
    },
    env,
  );
  return { ...r, derivations };
}

describe('reach record files', () => {
  it('encode and decode to the same records (and a rule set reaching everything to no records)', () => {
    const back = decodeReachFile(encodeReachFile(key, derived), key)!;
    expect(back.records).toEqual(derived.records);
    expect(back.boxes).toEqual(derived.boxes);
    expect(back.ruleSet).toBe(key.ruleSet);
    expect(derived.boxes.length).toBeGreaterThan(0);
    const guideline = { ...key, ruleSet: RULE_SETS.guideline };
    expect(decodeReachFile(encodeReachFile(guideline, null), guideline)).toBeNull();
  });

  it('are named by rule set, geometry, board height and format version', () => {
    expect(reachFileName(key)).toMatch(new RegExp(`^reach-tgm20g-[0-9a-f]{8}-w6-s4-h20-v${REACH_FILE_VERSION}\\.srr$`));
    // Another setting of a rule set with the same name is another file.
    const other = { ...key, ruleSet: { ...RULE_SETS.tgm20g, hold: !RULE_SETS.tgm20g.hold } };
    expect(reachFileName(other)).not.toBe(reachFileName(key));
  });

  it('are derived once, then read', async () => {
    const first = await load();
    expect([first.derivations, first.cached, first.rejected]).toEqual([1, false, undefined]);
    const second = await load();
    expect([second.derivations, second.cached]).toEqual([0, true]);
    expect(second.table!.records).toEqual(derived.records);
    expect(second.table!.boxes).toEqual(derived.boxes);
    expect(readdirSync(join(dir, 'stackrank')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  // Each damage is made to a good file; the next load must refuse it, derive again and leave a good file.
  const good = () => encodeReachFile(key, derived);
  it.each([
    ['a flipped bit in the records', (b: Uint8Array) => flip(b, b.length - 20, 4), /checksum/],
    ['a flipped bit in the header', (b: Uint8Array) => flip(b, 13, 1), /header checksum/],
    ['a cut file', (b: Uint8Array) => b.subarray(0, b.length - 8), /TRUNCATED|implies/],
    ['bytes after the data', (b: Uint8Array) => Uint8Array.from([...b, 0, 0, 0, 0]), /after the data/],
    ['another file kind', (b: Uint8Array) => flip(b, 0, 0x10), /not a reach record file/],
    ['another format version', (b: Uint8Array) => reVersioned(b), /format version/],
    [
      'the records of another rule set',
      () => encodeReachFile({ ...key, ruleSet: { ...RULE_SETS.tgm20g, name: 'mine' } }, derived),
      /another rule set/,
    ],
    ['another board height', () => encodeReachFile({ ...key, boardHeight: 22 }, derived), /board height 22/],
    ['an empty file', () => new Uint8Array(0), /shorter than the header/],
  ] as const)('%s is derived again and replaced', async (_, damage, why) => {
    writeFileSync(path(), damage(good()));
    const r = await load();
    expect(r.derivations).toBe(1);
    expect(r.cached).toBe(false);
    expect(r.rejected).toMatch(why);
    expect(r.table!.records).toEqual(derived.records);
    expect(new Uint8Array(readFileSync(path()))).toEqual(good());
    expect((await load()).derivations).toBe(0);
  });

  it('a record pointing past the boxes (checksums made to match) is refused', () => {
    const bad = { ...derived, records: derived.records.slice() };
    bad.records[3] = derived.boxes.length; // RC_BOX_START of record 0 past the end
    expect(() => decodeReachFile(encodeReachFile(key, bad), key)).toThrow(/record 0 is out of range/);
    try {
      decodeReachFile(encodeReachFile(key, bad), key);
    } catch (e) {
      expect(e).toBeInstanceOf(StackRankError);
    }
  });

  it('cachedReachTable: classic needs no records and no file; a preset goes through the cache', async () => {
    expect(await cachedReachTable('classic', W, 4, HEIGHT, placements, env)).toEqual({
      table: null,
      path: null,
      cached: false,
    });
    const nes = await cachedReachTable('nes', W, 4, HEIGHT, placements, env);
    expect(nes.path).toBe(join(dir, 'stackrank', reachFileName({ ...key, ruleSet: RULE_SETS.nes })));
    expect(nes.table).toEqual(reachTable('nes', W, 4, HEIGHT, placements));
    // The file it wrote holds the same records.
    const nesKey = { ...key, ruleSet: RULE_SETS.nes };
    expect(decodeReachFile(new Uint8Array(readFileSync(nes.path!)), nesKey)).toEqual(nes.table);
  });
});

/** A copy of `bytes` with `bits` of byte `at` flipped. */
function flip(bytes: Uint8Array, at: number, bits: number): Uint8Array {
  const out = bytes.slice();
  out[at] ^= bits;
  return out;
}

/** A good file relabelled with the next format version, its header checksum made to match. */
function reVersioned(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  view.setUint32(8, REACH_FILE_VERSION + 1, true);
  view.setUint32(60, checksum(out.subarray(0, 60)), true);
  return out;
}

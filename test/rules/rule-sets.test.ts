/**
 * RULE_SETS against docs/rules.md: the "Rule sets" table is parsed here, so the presets and the table cannot drift
 * apart; the fields the table does not show (spins, attack, the nes preset's time) are pinned from the prose that
 * states them ("Versus": only guideline has spins: 'tSpins' and attack: 'guideline').
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULE_SETS, RULE_SET_NAMES } from '../../src/rules/index.js';

const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');

/** The table's rows after its header, as cells (backquotes dropped). */
function presetTable(): string[][] {
  const lines = doc.split('\n');
  const head = lines.findIndex((l) => l.startsWith('| preset | rotation system | gravity | soft drop | hold |'));
  expect(head).toBeGreaterThan(0);
  const rows: string[][] = [];
  for (let i = head + 2; lines[i]?.startsWith('|'); i++)
    rows.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim().replaceAll('`', '')),
    );
  return rows;
}

const yesNo = (cell: string) => {
  expect(['yes', 'no']).toContain(cell);
  return cell === 'yes';
};

/** The `spawn` rule the last column describes. */
function spawnOf(cell: string, previous: string | undefined): string {
  if (cell.startsWith('above the board')) return 'aboveBoard';
  if (cell.startsWith('top row')) return 'topRow';
  if (cell.startsWith('rows 21–22 of the 40-row matrix')) return 'guideline';
  if (cell.startsWith('the same')) return previous ?? 'none before';
  throw new Error(`unknown spawn description: ${cell}`);
}

describe('RULE_SETS match docs/rules.md', () => {
  const table = presetTable();

  it('the table lists every preset, in RULE_SETS order', () => {
    expect(table.map((r) => r[0])).toEqual(RULE_SET_NAMES);
    expect(RULE_SET_NAMES).toEqual(['classic', 'nes', 'nesUntimed', 'guideline', 'tgm', 'tgm20g']);
  });

  it('each preset has the rotation system, gravity, soft drop, hold, previews and spawn its row gives', () => {
    let previous: string | undefined;
    for (const [name, system, gravity, softDrop, hold, previews, spawn] of table) {
      const expected = {
        name,
        rotationSystem: system.split(' ')[0],
        gravity,
        softDrop: yesNo(softDrop),
        hold: yesNo(hold),
        previews: Number(previews),
        spawn: spawnOf(spawn, previous),
      };
      previous = expected.spawn;
      expect(RULE_SETS[name as keyof typeof RULE_SETS], name).toMatchObject(expected);
    }
  });

  it('pins each preset literally (the table read by hand), with the versus fields and the nes time', () => {
    const base = { initialRotation: false, spins: 'none' };
    expect(RULE_SETS.classic).toMatchObject({
      ...base,
      rotationSystem: 'classic',
      gravity: 'normal',
      softDrop: false,
      hold: false,
      previews: 1,
      spawn: 'aboveBoard',
    });
    const nes = { ...base, rotationSystem: 'NRS', gravity: 'normal', softDrop: false, hold: false, previews: 1 };
    expect(RULE_SETS.nesUntimed).toMatchObject({ ...nes, spawn: 'topRow' });
    // "timed: level 18, `X.`, reaction 18"
    expect(RULE_SETS.nes).toMatchObject({ ...nes, spawn: 'topRow', level: 18, timeline: 'X.', reaction: 18 });
    expect(RULE_SETS.nes.timing).toBeDefined();
    expect(RULE_SETS.guideline).toMatchObject({
      rotationSystem: 'SRS',
      gravity: 'normal',
      softDrop: true,
      hold: true,
      previews: 5,
      spawn: 'guideline',
      spins: 'tSpins',
      attack: 'guideline',
    });
    const tgm = { ...base, rotationSystem: 'ARS', hold: false, previews: 1, spawn: 'topRow', initialRotation: true };
    expect(RULE_SETS.tgm).toMatchObject({ ...tgm, gravity: 'normal', softDrop: true });
    expect(RULE_SETS.tgm20g).toMatchObject({ ...tgm, gravity: '20G', softDrop: false });
    // "Versus": guideline alone has spins and an attack table; "Time": nes alone carries time.
    expect(doc).toContain(
      "`RULE_SETS.guideline` has `spins: 'tSpins'` and `attack: 'guideline'`, the other presets\n`spins: 'none'` and no attack table",
    );
    for (const name of RULE_SET_NAMES) {
      expect(RULE_SETS[name].attack, name).toBe(name === 'guideline' ? 'guideline' : undefined);
      expect(RULE_SETS[name].timing === undefined, name).toBe(name !== 'nes');
    }
  });
});

/**
 * The reaction (docs/game.md, "The reaction"): under a timed rule set the piece that joins the queue as the current
 * one appears is known only `reaction` frames later, so the first frames' inputs are chosen without it. This module
 * turns the policy's choices (with the piece's chances in its place, and with the piece known) into the move a
 * player could make: the inputs of the frames before the piece is known are the blind choice's, or none (a wait).
 */
import { maxHeight } from '../board-rows.js';
import { isTimed } from '../rules/rule-sets.js';
import { isTapTimeline, reactionFall, waitsOutReaction } from '../rules/timing.js';
import type { FrameInput } from '../rules/types.js';
import type { GameMove, Turn } from './decision.js';
import { cellsKey } from './grid.js';
import { factsAtLevel, reachableAfter, reachableOnRows, type GameRuleFacts } from './rules-adapter.js';

/**
 * The move for `turn` where its queue's last piece is known only after the reaction; `choose` is the policy's move
 * for a turn. Without a reaction (no revealChances, an untimed rule set, reaction 0, no queue) it is `choose`'s own.
 *
 * The move is first chosen without the piece (its chances in its place). If that move can wait (the piece falls
 * untouched until the reaction is over and then still reaches it), the player waits and then plays the move chosen
 * knowing the piece, if it too is reachable after the wait. Otherwise the first frames' inputs are the blind move's,
 * and the move changes to the one chosen knowing the piece if the piece still reaches it from where those inputs
 * have taken it (searched again from there), else stays the blind one.
 */
export function reactedMove(
  turn: Turn,
  facts: GameRuleFacts,
  width: number,
  choose: (turn: Turn) => GameMove | null,
): GameMove | null {
  const r = facts.ruleSet;
  if (turn.revealChances === undefined || !isTimed(r) || r.reaction === 0 || turn.queue.length === 0)
    return choose(turn);
  const blind = choose({ ...turn, queue: turn.queue.slice(0, -1), next: turn.revealChances });
  if (blind === null || blind.inputs.length <= r.reaction) return blind;
  // Where the piece is when the reaction is over: read once for the wait and for the search from the blind inputs.
  // Under DAS there is neither (the reaction is modelled for tap timelines).
  const level = turn.level ?? r.level;
  const fall = isTapTimeline(r.timeline) ? reactionFall(r.timing, r.timeline, r.reaction, level) : null;
  const atLevel = factsAtLevel(facts, level);
  const waited = fall && afterWait(turn, width, atLevel, fall);
  const blindKey = cellsKey(blind.cells);
  if (waited?.has(blindKey)) {
    const seen = choose(turn);
    const late = seen && waited.get(cellsKey(seen.cells));
    return late ? { ...seen, inputs: late } : { ...blind, inputs: waited.get(blindKey)! };
  }
  const seen = choose(turn);
  if (seen === null || samePrefix(seen.inputs, blind.inputs, r.reaction)) return seen ?? blind;
  const late =
    fall && afterReaction(turn, width, atLevel, fall.frames, blind.inputs as FrameInput[])?.get(cellsKey(seen.cells));
  return late ? { ...seen, inputs: late } : blind;
}

/**
 * The placements the current piece still reaches from where the blind move's inputs have taken it when the
 * reaction is over (rounded up as in afterWait, so the search starts at the phase of the piece's first frame), by
 * cells, with their inputs from the first frame; null when it no longer falls then.
 */
function afterReaction(
  turn: Turn,
  width: number,
  atLevel: GameRuleFacts,
  frames: number,
  played: readonly FrameInput[],
): Map<number, FrameInput[]> | null {
  const list = reachableAfter(turn.rows, width, turn.height, turn.current, atLevel, played, frames);
  if (!list) return null;
  const out = new Map<number, FrameInput[]>();
  for (const p of list) out.set(cellsKey(p.cells), p.inputs as FrameInput[]);
  return out;
}

/**
 * The placements the current piece reaches when no input is given until the reaction is over (rounded up to a
 * whole number of gravity steps and tap periods, so the gravity and the timeline keep their phase), by cells,
 * with their frame inputs from the first frame; null when it cannot wait that long (the stack reaches the rows the
 * piece falls through while waiting).
 */
function afterWait(
  turn: Turn,
  width: number,
  atLevel: GameRuleFacts,
  { frames, rows: fallen }: { frames: number; rows: number },
): Map<number, FrameInput[]> | null {
  if (!waitsOutReaction(turn.height, maxHeight(turn.rows), fallen)) return null;
  const height = turn.height - fallen;
  const wait: FrameInput[] = new Array(frames).fill('.');
  const out = new Map<number, FrameInput[]>();
  for (const p of reachableOnRows(turn.rows, width, height, turn.current, atLevel))
    out.set(cellsKey(p.cells), [...wait, ...(p.inputs as FrameInput[])]);
  return out;
}

/** Whether two input sequences have the same first `frames` tokens. */
function samePrefix(a: readonly unknown[], b: readonly unknown[], frames: number): boolean {
  if (a.length < frames || b.length < frames) return false;
  for (let i = 0; i < frames; i++) if (a[i] !== b[i]) return false;
  return true;
}

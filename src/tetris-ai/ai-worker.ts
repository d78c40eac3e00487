/**
 * The body of createWorkerTetrisAI's worker (src/tetris-ai/worker-ai.ts; dist/ai-worker.js, an entry of its own): a
 * Web Worker in a browser, a worker thread in Node. It makes one TetrisAI from the options it is sent (the default
 * table from the cache: IndexedDB in a browser, the cache folder in Node), then runs the calls it is sent on that AI
 * and on the games made from it, by name: a method the AI has is called with the arguments as sent, so new methods
 * and options reach the worker without changes here.
 */
import { StackRankError } from '../errors.js';
import { inNode, nodeBuiltin } from '../node-builtins.js';
import { RankTable } from '../rank/table.js';
import { PreviewTable } from '../rank/preview.js';
import { TetrisAI } from './ai.js';
import type { TetrisAIOptions } from './ai-options.js';
import { ruleFacts } from './rules-adapter.js';
import { TableSwap } from './table-swap.js';
import {
  type AIWorkerReply,
  type AIWorkerRequest,
  HANDLE_METHODS,
  REMOTE_METHODS,
  type TableInUse,
} from './worker-protocol.js';

interface Port {
  post(message: AIWorkerReply): void;
}

const port: Port = inNode
  ? (() => {
      const parent = nodeBuiltin('worker_threads', 'the AI worker').parentPort;
      if (!parent) throw new Error('src/tetris-ai/ai-worker.ts runs as a worker (createWorkerTetrisAI)');
      parent.on('message', (m: AIWorkerRequest) => void handle(m));
      return { post: (m: AIWorkerReply) => parent.postMessage(m) };
    })()
  : (() => {
      const scope = globalThis as unknown as {
        postMessage(m: unknown): void;
        onmessage: ((e: { data: AIWorkerRequest }) => void) | null;
      };
      scope.onmessage = (e) => void handle(e.data);
      return { post: (m: AIWorkerReply) => scope.postMessage(m) };
    })();

/** The AI (handle 0) and the objects its calls returned as handles (games), by handle. */
const objects = new Map<number, object>();
let nextHandle = 1;
/** The setups under way, by request id: their abort. */
const setups = new Map<number, AbortController>();

/**
 * Table 'smallFirst': once the small table's AI answers, the same AI over the default table is made (loaded, or
 * built and stored, its progress still reported under the create's id) and swapped in; the page is told.
 */
async function swapInDefault(
  swap: TableSwap,
  options: TetrisAIOptions,
  id: number,
  controller: AbortController,
): Promise<void> {
  try {
    swap.swapIn(await TetrisAI.create(options));
    port.post({ type: 'table', id, table: 'default' });
  } catch (e) {
    const reason = e instanceof StackRankError ? e.message : String((e as Error)?.stack ?? e);
    port.post({ type: 'table', id, table: 'small', reason });
  } finally {
    if (setups.get(id) === controller) setups.delete(id);
  }
}

/** 'smallFirst' under a 20G rule set: refused as TetrisAI.create refuses 'small' there, naming the option given. */
function refuseSmallAt20G(rules: TetrisAIOptions['rules']): void {
  const { ruleSet } = ruleFacts(rules ?? 'guideline');
  if (ruleSet.gravity === '20G')
    throw new StackRankError(
      'BAD_ARGUMENT',
      `table 'smallFirst' is not for ${ruleSet.name}: the 20G table needs steps within ±4 (leave table out for it)`,
    );
}

async function handle(m: AIWorkerRequest): Promise<void> {
  if (m.type === 'abort') {
    setups.get(m.id)?.abort();
    return;
  }
  try {
    if (m.type === 'create') {
      const controller = new AbortController();
      setups.set(m.id, controller);
      let swapping = false;
      try {
        const { table: named, ...sent } = m.options;
        const options: TetrisAIOptions = {
          ...sent,
          signal: controller.signal,
          onProgress: (progress) => port.post({ type: 'progress', id: m.id, progress }),
        };
        if (named === 'smallFirst') refuseSmallAt20G(sent.rules);
        let table: TableInUse = 'default';
        if (m.table) [options.table, table] = [RankTable.fromBytes(new Uint8Array(m.table)), 'given'];
        else if (named) [options.table, table] = ['small', 'small'];
        if (m.previewTable) options.previewTable = PreviewTable.fromBytes(new Uint8Array(m.previewTable));
        const ai = await TetrisAI.create(options);
        const swap = named === 'smallFirst' ? new TableSwap(ai) : null;
        objects.set(0, swap ?? ai);
        const { rules, lookahead, well, width, policy, randomizer } = ai;
        port.post({ type: 'result', id: m.id, value: { rules, lookahead, well, width, policy, randomizer, table } });
        if (swap) {
          swapping = true;
          void swapInDefault(swap, { ...options, table: undefined }, m.id, controller);
        }
      } finally {
        if (!swapping) setups.delete(m.id);
      }
      return;
    }
    if (m.type === 'release') {
      objects.delete(m.target);
      port.post({ type: 'result', id: m.id, value: undefined });
      return;
    }
    const target = objects.get(m.target) as Record<string, unknown> | undefined;
    if (!target) throw new StackRankError('BAD_ARGUMENT', 'this game was disposed');
    const method = REMOTE_METHODS.includes(m.method) ? target[m.method] : undefined;
    if (typeof method !== 'function')
      throw new StackRankError(
        'BAD_ARGUMENT',
        `this object has no method ${JSON.stringify(m.method)} to call remotely`,
      );
    const value = await (method as (...args: unknown[]) => unknown).apply(target, m.args);
    if (HANDLE_METHODS.includes(m.method) && value !== null && typeof value === 'object') {
      const h = nextHandle++;
      objects.set(h, value);
      port.post({ type: 'result', id: m.id, value: h });
    } else port.post({ type: 'result', id: m.id, value });
  } catch (e) {
    port.post({
      type: 'error',
      id: m.id,
      code: e instanceof StackRankError ? e.code : undefined,
      // A StackRankError's message is for the caller as it is; anything else is a crash, reported with its stack.
      message: e instanceof StackRankError ? e.message : String((e as Error)?.stack ?? e),
    });
  }
}

/** SharedWork (src/setup-once.ts): one setup shared by every caller; waits end on their own signals. */
import { describe, expect, it, vi } from 'vitest';
import { SharedWork } from '../src/setup-once.js';

/** Work that finishes when told to, and records each start and whether its stop signal fired. */
function controlledWork() {
  const starts: { finish(v: number): void; fail(e: Error): void; stop: AbortSignal }[] = [];
  const work = new SharedWork<number>(
    (stop) =>
      new Promise<number>((resolve, reject) => {
        starts.push({ finish: resolve, fail: reject, stop });
      }),
    'the setup was aborted',
  );
  return { work, starts };
}

describe('SharedWork', () => {
  it('starts once for every caller and keeps the result', async () => {
    const { work, starts } = controlledWork();
    const a = work.get();
    const b = work.get(new AbortController().signal);
    expect(starts).toHaveLength(1);
    starts[0].finish(42);
    expect(await a).toBe(42);
    expect(await b).toBe(42);
    expect(await work.get()).toBe(42);
    expect(starts).toHaveLength(1);
  });

  it('an aborted caller is rejected at once; the work goes on for the callers still waiting', async () => {
    const { work, starts } = controlledWork();
    const impatient = new AbortController();
    const aborted = work.get(impatient.signal);
    const patient = work.get();
    impatient.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'StackRankError', code: 'ABORTED' });
    expect(starts[0].stop.aborted).toBe(false);
    starts[0].finish(7);
    expect(await patient).toBe(7);
  });

  it('when the last waiting caller aborts, the work is stopped and the next caller starts it again', async () => {
    const { work, starts } = controlledWork();
    const one = new AbortController();
    const two = new AbortController();
    const first = work.get(one.signal);
    const second = work.get(two.signal);
    one.abort();
    expect(starts[0].stop.aborted).toBe(false);
    two.abort();
    expect(starts[0].stop.aborted).toBe(true);
    await expect(first).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(second).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(work.get(one.signal)).rejects.toMatchObject({ code: 'ABORTED', message: 'the setup was aborted' });
    const again = work.get();
    expect(starts).toHaveLength(2);
    starts[1].finish(3);
    expect(await again).toBe(3);
  });

  it('a failure reaches every waiting caller and is forgotten: the next caller tries again', async () => {
    const { work, starts } = controlledWork();
    const a = work.get();
    starts[0].fail(new Error('disk full'));
    await expect(a).rejects.toThrow('disk full');
    const b = work.get();
    expect(starts).toHaveLength(2);
    starts[1].finish(1);
    expect(await b).toBe(1);
  });

  it('puts one listener on a waiting caller signal and takes it off when the work is done', async () => {
    const { work, starts } = controlledWork();
    const caller = new AbortController();
    const added = vi.spyOn(caller.signal, 'addEventListener');
    const removed = vi.spyOn(caller.signal, 'removeEventListener');
    const result = work.get(caller.signal);
    expect(added).toHaveBeenCalledTimes(1);
    starts[0].finish(5);
    expect(await result).toBe(5);
    expect(removed).toHaveBeenCalledTimes(1);
  });

  it('tells its progress to every caller waiting with a listener, from the first report on, and to none after', async () => {
    const reports: ((n: number) => void)[] = [];
    const finishes: ((v: string) => void)[] = [];
    const work = new SharedWork<string, number>((_stop, report) => {
      report(0); // at once, before the work's first wait: the first caller hears it too
      reports.push(report);
      return new Promise<string>((resolve) => finishes.push(resolve));
    }, 'the setup was aborted');
    const heardA: number[] = [];
    const heardB: number[] = [];
    const a = work.get(undefined, (n) => heardA.push(n));
    reports[0](1);
    const b = work.get(undefined, (n) => heardB.push(n));
    reports[0](2);
    finishes[0]('done');
    expect(await a).toBe('done');
    expect(await b).toBe('done');
    reports[0](3);
    expect(heardA).toEqual([0, 1, 2]);
    expect(heardB).toEqual([2]);
  });

  it("a listener that throws ends its own caller's wait with its error; the work goes on for the others", async () => {
    let report!: (n: number) => void;
    let finish!: (v: number) => void;
    let stop!: AbortSignal;
    const work = new SharedWork<number, number>((s, r) => {
      report = r;
      stop = s;
      return new Promise<number>((resolve) => (finish = resolve));
    }, 'the setup was aborted');
    const failing = work.get(undefined, () => {
      throw new Error('the progress bar is gone');
    });
    const other = work.get(undefined, () => {});
    report(1);
    await expect(failing).rejects.toThrow('the progress bar is gone');
    expect(stop.aborted).toBe(false);
    finish(9);
    expect(await other).toBe(9);
  });
});

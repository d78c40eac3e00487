import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decoder, encoder, Field } from 'tetris-fumen';
import { Board, boardFromFumen, fumenFromBoard, StackRankError } from '../../src/index.js';
import { FUMEN_MAX_LENGTH } from '../../src/rules/fumen.js';

// Every piece colour and garbage, drawn with the package's own field syntax (top row first).
const COLOURED = ['LLL_______', 'LOOIIIIZZ_', 'JOOSSTTTZZ', 'JJSSXXTXXX'];
const AS_BOARD = ['###.......', '#########.', '##########', '##########'];

describe('fumen', () => {
  it('decodes the tetris-fumen README position (four rows, column 9 open) to the expected rows', () => {
    const { board } = boardFromFumen('v115@9gI8AeI8AeI8AeI8KeAgH');
    expect(board.width).toBe(10);
    expect(board.height).toBe(20);
    expect(board.toRows().slice(-5)).toEqual(['..........', '#########.', '#########.', '#########.', '#########.']);
  });

  it('decodes a fumen neither we nor tetris-fumen wrote (quoted from the sfaster README) as decoded by hand', () => {
    // Hand decoding (fumen v115): the field is 24 rows of 10 (rows 22..0, then the garbage row), read top row
    // first; each run is two base64 digits, low digit first (A-Z 0-25, a-z 26-51, 0-9 52-61), value
    // (block + 8) * 240 + (length - 1), block 0 empty, 1..7 I L O Z T J S, 8 garbage.
    //   9g = 61 + 32*64 = 2109 = 8*240 + 189: 190 empty (rows 22..4)
    //   il = 2402 = 10*240 + 2: L x3 | Ee = 1924: empty x5 | R4 = 3601 = 15*240 + 1: S x2      -> row 3 LLL.....SS
    //   gl = 2400: L x1 | Rp = 2641 = 11*240 + 1: O x2 | De: empty x4 | R4: S x2 | ww = 3120 = 13*240: T x1
    //                                                                                           -> row 2 LOO....SST
    //   g0 = 3360 = 14*240: J x1 | Rp: O x2 | Ce: empty x3 | Bt = 2881 = 12*240 + 1: Z x2 | xw = 3121: T x2
    //                                                                                           -> row 1 JOO...ZZTT
    //   i0 = 3362: J x3 | De: empty x4 | Bt: Z x2 | ww: T x1                                  -> row 0 JJJ....ZZT
    //   Je = 1929: empty x10 (the garbage row); 240 cells in all. AgH = 30720: no piece, no comment.
    const { board, current, queue } = boardFromFumen('v115@9gilEeR4glRpDeR4wwg0RpCeBtxwi0DeBtwwJeAgH');
    expect([board.width, board.height]).toEqual([10, 20]);
    expect(board.toRows()).toEqual([
      ...Array(15).fill('..........'),
      '..........',
      '###.....##',
      '###....###',
      '###...####',
      '###....###',
    ]);
    expect(current).toBeUndefined();
    expect(queue ?? []).toEqual([]);
  });

  it('writes the tetris-fumen README position exactly (hand-encoded)', () => {
    // 190 empty: 8*240 + 189 = 2109 = 61 + 32*64 -> "9g"; 9 garbage: 16*240 + 8 = 3848 = 8 + 60*64 -> "I8";
    // 1 empty: 1920 = 0 + 30*64 -> "Ae"; (I8 Ae) x3, I8; the last row's hole and the garbage row, 11 empty:
    // 1930 = 10 + 30*64 -> "Ke"; then the page flags "AgH" (no piece, colour on, no comment).
    expect(fumenFromBoard(Board.fromRows(Array(4).fill('#########.'), 20))).toBe('v115@9gI8AeI8AeI8AeI8KeAgH');
  });

  it('reads a URL and a page past the first', () => {
    const url = 'https://harddrop.com/fumen/?v115@vhGRQYHAvItJEJmhCAUGJKJJvMJTNJGBJFKYPAUEzP?EJG98AQmqhECDdCA';
    const last = boardFromFumen(url, { page: 6 });
    const pkg = decoder.decode(url.slice(url.indexOf('v115@')))[6].field;
    for (let y = 0; y < 20; y++)
      for (let x = 0; x < 10; x++) expect(last.board.filled(x, y)).toBe(pkg.at(x, y) !== '_');
    expect(() => boardFromFumen(url, { page: 7 })).toThrow(
      /page must be an integer from 0 to 6 \(the fumen has 7 pages\)/,
    );
    const onePage = fumenFromBoard(Board.empty(10, 20));
    expect(() => boardFromFumen(onePage, { page: 1 })).toThrow(
      expect.objectContaining({ message: 'page must be 0 (the fumen has 1 page); got 1' }),
    );
  });

  it('every piece colour and garbage read as filled; the round trip keeps the board (colours become garbage X)', () => {
    const coloured = encoder.encode([{ field: Field.create(COLOURED.join('')) }]);
    const { board } = boardFromFumen(coloured);
    expect(board.toRows().slice(-4)).toEqual(AS_BOARD);
    const again = fumenFromBoard(board);
    expect(boardFromFumen(again).board.toRows()).toEqual(board.toRows());
    expect(boardFromFumen(again).board.equals(board)).toBe(true);
    const field = decoder.decode(again)[0].field;
    expect(field.str({ garbage: false })).toBe(['XXX_______', 'XXXXXXXXX_', 'XXXXXXXXXX', 'XXXXXXXXXX'].join('\n'));
  });

  it('round-trips random boards of 20 and 23 rows', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
    for (let t = 0; t < 50; t++) {
      const h = t % 2 ? 23 : 20;
      const bits = Array.from({ length: h }, () => Math.floor(rnd() * 1024));
      if (h === 23) bits[22] |= 1;
      const b = Board.fromBits(bits, 10, h);
      const back = boardFromFumen(fumenFromBoard(b)).board;
      expect(back.height).toBe(h);
      expect([...back.rows]).toEqual(bits);
      expect(back.equals(b)).toBe(true);
    }
  });

  it('reads the queue from a quiz comment or a plain piece list, and writes placement and comment', () => {
    const b = Board.fromRows(['#########.'], 20);
    const quiz = boardFromFumen(fumenFromBoard(b, { comment: '#Q=[L](T)SZO' }));
    expect(quiz).toMatchObject({ current: 'T', queue: ['S', 'Z', 'O'], hold: 'L', comment: '#Q=[L](T)SZO' });
    expect(boardFromFumen(fumenFromBoard(b, { comment: 'IOJ' }))).toMatchObject({ current: 'I', queue: ['O', 'J'] });
    expect(boardFromFumen(fumenFromBoard(b, { comment: 'hello' })).current).toBeUndefined();
    const withI = fumenFromBoard(b, {
      placement: {
        piece: 'I',
        cells: [
          [9, 0],
          [9, 1],
          [9, 2],
          [9, 3],
        ],
      },
    });
    expect(decoder.decode(withI)[0].field.at(9, 2)).toBe('I');
    expect(boardFromFumen(withI).board.toRows().slice(-4)).toEqual([
      '.........#',
      '.........#',
      '.........#',
      '##########',
    ]);
  });

  it('garbage input throws BAD_FUMEN; bad boards BAD_BOARD', () => {
    expect(() => boardFromFumen('v115@vh!AgH')).toThrow(/"!" at character 7 is not fumen data/);
    // '?' is fumen's line break, and a link in front of the data is read past.
    expect(
      boardFromFumen('https://fumen.zui.jp/?v115@vhAAgH')
        .board.toRows()
        .every((r) => r === '..........'),
    ).toBe(true);
    // A character outside fumen's alphabet inside good data is refused too: the package decoded it as -1, giving
    // a made-up board ('v115@corrupt!!' read as 23 full rows, 'v115@vh!AgH' as an empty field).
    for (const bad of [
      '',
      'hello',
      'v115@!!!!',
      'v115@9gI8AeI8Ae',
      'v115@',
      'v115@corrupt!!',
      'v115@vh!AgH',
      42,
      null,
    ]) {
      try {
        boardFromFumen(bad as string);
        expect.unreachable(`accepted ${String(bad)}`);
      } catch (e) {
        expect(e).toBeInstanceOf(StackRankError);
        expect((e as StackRankError).code).toBe('BAD_FUMEN');
      }
    }
    expect(() => fumenFromBoard(Board.empty(9, 20))).toThrow(/10 columns wide/);
    expect(() =>
      fumenFromBoard(Board.fromBits([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 10)),
    ).toThrow(/23 rows/);
  });

  it('takes a BoardLike as every board-taking function does, and draws only a piece of 4 cells on empty cells', () => {
    const rows = ['..........', '..........', '..........', '#########.'];
    const made = fumenFromBoard(Board.fromRows(rows, 20));
    expect(fumenFromBoard(rows)).toBe(made);
    expect(fumenFromBoard({ width: 10, rows: [511, 0, 0, 0] })).toBe(made);
    const b = Board.fromRows(rows, 20);
    expect(() => fumenFromBoard(b, { placement: { piece: 'I', cells: [[9, 0]] } })).toThrow(
      /placement.cells must be the piece's 4 cells; got 1/,
    );
    const onStack: [number, number][] = [
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
    ];
    expect(() => fumenFromBoard(b, { placement: { piece: 'I', cells: onStack } })).toThrow(
      /placement cell 0 \[0, 0\] is a filled cell of the board/,
    );
  });

  it("refuses a placement whose cells are not one of its piece's orientations, and a piece that is no piece", () => {
    const empty = Board.empty(10, 20);
    const bent: [number, number][] = [
      [0, 0],
      [1, 0],
      [2, 0],
      [2, 1],
    ];
    expect(() => fumenFromBoard(empty, { placement: { piece: 'I', cells: bent } })).toThrow(
      expect.objectContaining({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/do not make the piece I: .*orientations/),
      }),
    );
    // the same cells are an L, in any order and anywhere on the field
    const moved = bent.map(([x, y]) => [x + 5, y + 10] as [number, number]).reverse();
    expect(decoder.decode(fumenFromBoard(empty, { placement: { piece: 'L', cells: moved } }))[0].field.at(7, 11)).toBe(
      'L',
    );
    // every rotation of a T, and four cells that are not joined
    const rotations: [number, number][][] = [
      [
        [4, 1],
        [5, 1],
        [6, 1],
        [5, 2],
      ],
      [
        [5, 0],
        [5, 1],
        [5, 2],
        [6, 1],
      ],
      [
        [4, 1],
        [5, 1],
        [6, 1],
        [5, 0],
      ],
      [
        [5, 0],
        [5, 1],
        [5, 2],
        [4, 1],
      ],
    ];
    for (const cells of rotations)
      expect(() => fumenFromBoard(empty, { placement: { piece: 'T', cells } })).not.toThrow();
    expect(() =>
      fumenFromBoard(empty, {
        placement: {
          piece: 'O',
          cells: [
            [0, 0],
            [1, 0],
            [3, 0],
            [4, 0],
          ],
        },
      }),
    ).toThrow(/do not make the piece O/);
    expect(() => fumenFromBoard(empty, { placement: { piece: 'Q' as never, cells: bent } })).toThrow(
      expect.objectContaining({
        code: 'BAD_PIECE',
        message: 'placement.piece must be a letter of I O T S Z L J; got "Q"',
      }),
    );
  });
});

describe('fumen comments (issue 50, defect 5)', () => {
  const codeOf = (f: () => unknown) => {
    try {
      f();
      return null;
    } catch (e) {
      return (e as StackRankError).code;
    }
  };

  it('a comment is written whole, or refused with BAD_ARGUMENT naming the limit, never cut', () => {
    // At the limit, one past it, and non-ASCII text whose escapes straddle it (each character is %uXXXX, 6 long).
    expect(boardFromFumen(fumenFromBoard(Board.empty(), { comment: 'x'.repeat(4095) })).comment).toBe('x'.repeat(4095));
    expect(() => fumenFromBoard(Board.empty(), { comment: 'x'.repeat(4096) })).toThrow(
      expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringMatching(/at most 4095/) }),
    );
    expect(boardFromFumen(fumenFromBoard(Board.empty(), { comment: '日'.repeat(682) })).comment).toBe('日'.repeat(682));
    expect(codeOf(() => fumenFromBoard(Board.empty(), { comment: '日本'.repeat(400) }))).toBe('BAD_ARGUMENT');
  });

  it('a comment that starts with "#Q=" is a quiz: read back when it is one, else BAD_ARGUMENT (not the package\'s Error)', () => {
    // Found by the fuzz suite (a damaged quiz comment read back and written again): the package threw a plain Error.
    for (const comment of ['#Q=[T](S)ZOIJL', '#Q=[](T)SZ', '#Q=[]()SZ'])
      expect(boardFromFumen(fumenFromBoard(Board.empty(), { comment })).comment).toBe(comment);
    for (const comment of ['#Q=', '#Q=% BT](S)ZOIJL', '#Q=[X](T)', '#Q=[](']) {
      expect(() => fumenFromBoard(Board.empty(), { comment })).toThrow(
        expect.objectContaining({
          name: 'StackRankError',
          code: 'BAD_ARGUMENT',
          message: expect.stringMatching(/#Q=\[H\]\(C\)QUEUE/),
        }),
      );
    }
  });

  it('property: any comment reads back as written exactly when it fits, and is BAD_ARGUMENT otherwise', () => {
    // Lengths across the limit (size 'max': fast-check keeps strings short otherwise).
    const text = fc.oneof(
      fc
        .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 1400, size: 'max' })
        .map((points) => points.map((c) => String.fromCodePoint(c)).join('')),
      fc
        .array(fc.constantFrom('x', '#', 'é', '日', '\uD83D', '%', '+'), {
          minLength: 600,
          maxLength: 4200,
          size: 'max',
        })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (comment) => {
        const fits = escape(comment).length <= 4095;
        const code = codeOf(() => fumenFromBoard(Board.empty(), { comment }));
        if (!fits) expect(code).toBe('BAD_ARGUMENT');
        else expect(boardFromFumen(fumenFromBoard(Board.empty(), { comment })).comment).toBe(comment);
      }),
      { numRuns: 60, endOnFailure: true },
    );
  });
});

describe('long fumens (issue 50, defect 4)', () => {
  /** A fumen of `pages` pages, each changing one garbage cell (so no run of pages is stored as a repeat). */
  const manyPages = (pages: number) =>
    encoder.encode(
      Array.from({ length: pages }, (_, i) => {
        const field = Field.create();
        if (i % 2) field.set(i % 10, 0, 'X');
        return { field };
      }),
    );

  it('a fumen over FUMEN_MAX_LENGTH characters is BAD_FUMEN at once, naming the limit', () => {
    // 40,000 pages, the issue's case (the package took about 14 s and 560 MB to decode it): refused, not decoded.
    // (The data of 1,000 empty pages, 40 times over: each copy starts from the empty field the one before ends on.)
    const thousand = encoder.encode(Array.from({ length: 1000 }, () => ({ field: Field.create() }))).slice(5);
    const huge = `v115@${thousand.repeat(40)}`;
    expect(huge.length).toBeGreaterThan(FUMEN_MAX_LENGTH);
    for (const fumen of [huge, `https://fumen.zui.jp/?${huge}`, `v115@${'A'.repeat(FUMEN_MAX_LENGTH)}`])
      expect(() => boardFromFumen(fumen)).toThrow(
        expect.objectContaining({ code: 'BAD_FUMEN', message: expect.stringMatching(/at most 8,192 characters/) }),
      );
  });

  it('a fumen at the limit is read, every page as the package reads it', () => {
    let pages = 1;
    while (manyPages(pages * 2).length <= FUMEN_MAX_LENGTH) pages *= 2;
    const fumen = manyPages(pages);
    expect(fumen.length).toBeLessThanOrEqual(FUMEN_MAX_LENGTH);
    const decoded = decoder.decode(fumen);
    for (const page of [0, 1, pages - 1]) {
      const { board } = boardFromFumen(fumen, { page });
      for (let x = 0; x < 10; x++) expect(board.filled(x, 0)).toBe(decoded[page].field.at(x, 0) !== '_');
    }
  });
});

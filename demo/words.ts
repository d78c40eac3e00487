/** Counted nouns in the page's sentences: "1 hint", "2 hints", never "1 hints". */
export const count = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

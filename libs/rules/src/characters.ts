// User-perceived characters, as the maxLength rule and the truncate transform count them.

let segmenter: Intl.Segmenter | undefined;

/** The grapheme segmenter (made once: building one costs more than segmenting a cell). */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/** How many user-perceived characters `v` holds (👍🏽 is one). */
export function graphemeLength(v: string): number {
  // Every grapheme holds at least one UTF-16 unit, and plain ASCII has one unit per grapheme.
  let ascii = true;
  for (let i = 0; i < v.length; i++) {
    if (v.charCodeAt(i) > 0x7e) {
      ascii = false;
      break;
    }
  }
  if (ascii) return v.length;
  let n = 0;
  for (const _ of graphemeSegmenter().segment(v)) n++;
  return n;
}

import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_HINT_KEY, FRAME_ID, FRAME_PRELOADS_ID } from './frame-ids';

// The first-screen frame's names are spelled in three places that cannot import each other: the app
// (this module), the classic boot script (no imports: it is not a module) and the build's prerender.

const read = (file: string) => readFileSync(join(__dirname, file), 'utf8');

describe('first-screen frame names', () => {
  it('the boot script reads the hint under the key the dashboard saves it', () => {
    expect(read('../islands/app-frame-boot.ts')).toContain(`const HINT_KEY = '${FRAME_HINT_KEY}';`);
  });

  it('the prerender writes the frame and its preloads under the ids main.tsx looks for', () => {
    const prerender = read('../../../../scripts/prerender-web.js');
    expect(prerender).toContain(`const FRAME_PRELOADS = '${FRAME_PRELOADS_ID}';`);
    expect(prerender).toContain(`<div id="${FRAME_ID}" data-route=`);
  });
});

/**
 * Run as a child process by Recorder.alloc.test.ts, under V8 flags the test chooses (for example
 * `--no-turbo-inlining`): warms the allocation workload up, then prints one line of JSON with the
 * young-generation bytes of three 2,000-frame windows.
 *
 * @example
 * // node --expose-gc --no-turbo-inlining --import tsx src/core/record/__tests__/allocationProbe.ts
 * // {"windows":[0,0,0]}
 */
import { allocatedBytes } from '../../../../tests/helpers/allocation';
import { allocationWorkload } from './allocationWorkload';

const w = allocationWorkload();
for (let i = 0; i < 20_000; i++) w.frame();
const windows: number[] = [];
for (let k = 0; k < 3; k++) {
  windows.push(
    allocatedBytes(() => {
      for (let i = 0; i < 2000; i++) w.frame();
    }),
  );
}
process.stdout.write(`${JSON.stringify({ windows })}\n`);

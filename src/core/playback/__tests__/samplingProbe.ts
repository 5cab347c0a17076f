/**
 * Run as a child process by allocation.test.ts under `--no-turbo-inlining`, where every call is a
 * real call: plays a recording of 250 ids (~235 in each frame) at 8× (a new frame pair to decode and blend on
 * every tick) and prints one line of JSON with the young-generation bytes per tick of three
 * 2,000-tick windows.
 *
 * @example
 * // node --expose-gc --no-turbo-inlining --import tsx src/core/playback/__tests__/samplingProbe.ts
 * // {"entities":250,"bytesPerCall":[0,0,0]}
 */
import { allocatedBytes } from '../../../../tests/helpers/allocation';
import { TimeControl } from '../TimeControl';
import { Sampler } from '../Sampler';
import { SampleBuffer } from '../SampleBuffer';
import { axisAngle } from '../../../../tests/helpers/rotations';
import { quietRecorder } from './helpers';

const rec = quietRecorder({ maxFrames: 64 });
for (let f = 0; f < 40; f++) {
  rec.beginFrame(f / 60, 1 / 60);
  rec.camera(f, 0, 0, 0, 0, 0, 1, 1);
  for (let id = 0; id < 250; id++) {
    if ((id + f) % 17 === 0) continue; // churn: lives end and begin
    const q = axisAngle(1, 2, 3, id * 0.1 + f * (id % 5) * 0.2);
    rec.entity(id, id + f, id - f, 0, q[0], q[1], q[2], q[3], 0);
  }
  rec.endFrame();
}
const sampler = new Sampler(rec.reader, { teleportThreshold: 500 });
const time = new TimeControl(rec.reader, { loop: true, maxSpeed: 8 });
const out = new SampleBuffer();
// Fast-forward at 8×, looping: each tick crosses frames, so the sampler decodes and blends a new
// pair on every call. The probe itself passes no computed double to a call (1 / 60 is a constant).
time.setSpeed(8);
time.play();
const body = (): void => {
  time.update(1 / 60);
  sampler.sampleTime(time, out);
};
for (let i = 0; i < 30_000; i++) body();
const bytesPerCall: number[] = [];
for (let w = 0; w < 3; w++) {
  bytesPerCall.push(
    allocatedBytes(() => {
      for (let i = 0; i < 2000; i++) body();
    }) / 2000,
  );
}
process.stdout.write(`${JSON.stringify({ entities: out.count, bytesPerCall })}\n`);

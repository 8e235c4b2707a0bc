/** Worker thread for extraction, fingerprinting and alignment (see engine.ts). */
import type { AlignParams } from './align.ts';
import { type PrepareOptions, type SourceWords, alignAll, prepareFile } from './engine.ts';
import { serveWorker } from './pool.ts';

serveWorker({
  async prepare(payload: { data: Uint8Array; options: PrepareOptions }) {
    const p = await prepareFile(payload.data, payload.options);
    return {
      result: p,
      transfer: [p.wordHashes.buffer, p.mask.buffer, p.fingerprints.hashes.buffer, p.fingerprints.positions.buffer] as ArrayBuffer[],
    };
  },
  async align(payload: {
    manuscript: { wordHashes: Uint32Array; mask: Uint8Array };
    sources: SourceWords[];
    params: AlignParams;
  }) {
    return { result: alignAll(payload.manuscript, payload.sources, payload.params) };
  },
});

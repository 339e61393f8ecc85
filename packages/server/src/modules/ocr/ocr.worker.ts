import { parentPort, workerData } from 'node:worker_threads';
import { loadModels, readPicture } from './ocr-engine.ts';

// The OCR worker thread (docs/decisions/0125; the main thread's side: ocr-runner.ts): loads the models once, then
// reads one picture at a time, so the model work never holds up the server's requests.

export type ToOcrWorker = { id: number; bytes: Uint8Array };
export type FromOcrWorker = { id: number; result: Awaited<ReturnType<typeof readPicture>> } | { id: number; error: string; invalidImage: boolean };

const port = parentPort!;
const models = loadModels((workerData as { threads: number }).threads);
// Failed loading is answered to every request that waits on it.
models.catch(() => undefined);

port.on('message', (m: ToOcrWorker) => {
  models
    .then((loaded) => readPicture(loaded, Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength)))
    .then(
      (result) => port.postMessage({ id: m.id, result } satisfies FromOcrWorker),
      (error: Error) => {
        // sharp's refusals of the bytes themselves (not a picture, too many pixels) are the caller's picture's fault.
        const invalidImage = /Input buffer|unsupported image format|pixel limit|corrupt|bad seek|VipsJpeg|pngload|webpload/i.test(error.message);
        port.postMessage({ id: m.id, error: error.message, invalidImage } satisfies FromOcrWorker);
      },
    );
});

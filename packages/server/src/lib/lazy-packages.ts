// Heavy packages that only some requests need, loaded the first time one does instead of at start-up: together they
// are about 170 MiB of a fresh process's memory (Chromium's driver alone about 90), which every server paid before
// its first print, import or e-mail (docs/performance.md "Peer workload", RSS). Each loads once per process.

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load().catch((error) => {
    loaded = undefined;
    throw error;
  }));
}

export const excelJs = once(async () => (await import('exceljs')).default);
export const playwrightCore = once(() => import('playwright-core'));
export const sharpImages = once(async () => (await import('sharp')).default);
export const nodemailerTransport = once(async () => (await import('nodemailer')).default);
export const yazlZip = once(() => import('yazl'));
export const csvParse = once(() => import('csv-parse'));
export const pdfLib = once(() => import('pdf-lib'));
export const undiciAgent = once(async () => (await import('undici')).Agent);

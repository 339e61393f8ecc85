import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { normalPrefix, openBucket } from './modules/files/file-store-s3.ts';
import { moveFilesToBucket } from './modules/files/move-to-bucket.ts';

// `npm run files:to-s3 [-- --verify-existing] [-- --concurrency 8]`: copies the data folder's files
// (<TRITIUM_DATA_DIR>/files) into the bucket of the TRITIUM_S3_* settings, checks each copy's size and SHA-256, and
// says what failed. Run it again to resume: what is already there with the same checksum is skipped. The folder's
// files are left as they are (docs/decisions/0122; docs/deploy.md "Files in a bucket").

const { values } = parseArgs({ options: { 'verify-existing': { type: 'boolean', default: false }, concurrency: { type: 'string', default: '4' } } });
const config = loadConfig();
const root = path.join(config.dataDir, 'files');
const bucket = await openBucket(config.s3);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`Copying ${root} to s3://${config.s3.bucket}/${normalPrefix(config.s3.prefix)}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}`);

let lastReport = 0;
const result = await moveFilesToBucket({
  root,
  bucket,
  concurrency: Math.max(1, Number(values.concurrency) || 4),
  verifyExisting: values['verify-existing'],
  onProgress(p, last) {
    if (last.outcome === 'failed') console.log(`failed: ${last.key}`);
    if (Date.now() - lastReport < 2000 && p.done < p.total) return;
    lastReport = Date.now();
    console.log(`${p.done}/${p.total} files: ${p.copied} copied (${mb(p.bytesCopied)} MB), ${p.skipped} already there, ${p.failed} failed`);
  },
});
bucket.client.destroy();

if (result.ignored.length) console.log(`Not storage keys, left alone (${result.ignored.length}): ${result.ignored.slice(0, 20).join(', ')}${result.ignored.length > 20 ? ' …' : ''}`);
for (const f of result.failures) console.log(`FAILED ${f.key}: ${f.reason}`);
console.log(`Done: ${result.total} files, ${result.copied} copied (${mb(result.bytesCopied)} MB), ${result.skipped} already there, ${result.failed} failed.`);
if (result.failed) {
  console.log('Run the command again to retry the failed files; the folder still holds every file.');
  process.exitCode = 1;
}

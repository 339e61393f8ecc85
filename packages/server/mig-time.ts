import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from './src/db/database.ts';
import { migratePlatform, migrateEngine } from './src/db/migrate.ts';
const pglite = await PGlite.create({ extensions: { pg_trgm } });
let n = 0;
const database = await openDatabase({ pglite, onQuery: () => n++ });
let t = Date.now();
await migratePlatform(database.db);
console.log('platform', Date.now() - t, 'ms', n, 'queries');
for (let i = 0; i < 4; i++) {
  n = 0; t = Date.now();
  await migrateEngine(database.db, 'tst0000' + i);
  console.log('engine', Date.now() - t, 'ms', n, 'queries');
}
t = Date.now();
const dump = await pglite.dumpDataDir('none');
console.log('dump', Date.now() - t, 'ms', dump.size);
t = Date.now();
const p2 = await PGlite.create({ loadDataDir: dump, extensions: { pg_trgm } });
await p2.query('select 1');
console.log('load', Date.now() - t, 'ms');

import { sql } from 'drizzle-orm';
import { openRuntime } from '../server/lifecycle.ts';
import { seedArchive } from './lib/seed.ts';
const dir = process.argv[2];
const { lock, database } = await openRuntime('seed', { ...process.env, DATA_DIR: dir } as NodeJS.ProcessEnv);
await seedArchive(database.db, { issueSizes: [300, ...Array(84).fill(20), 15], issuesPerVolume: 4, firstVolumeNumber: 2, firstYear: 2000 } as never);
await database.db.execute(sql.raw('VACUUM ANALYZE'));
await database.close(); lock.release();

import { MongoClient } from 'mongodb';
import { MongoAspectStore } from '@catalog/store/mongodb';
import type { AspectWrite } from '@catalog/store';
const client = new MongoClient('mongodb://127.0.0.1:27017/', { monitorCommands: true });
await client.connect();
const db = client.db('prof_' + Date.now());
const { ensureCollections } = await import('../packages/store/src/mongodb/mongo-schema.js');
await ensureCollections(db);
const store = new MongoAspectStore(client, db, { uri: '' });
const stats = new Map<string, { n: number; ms: number }>();
client.on('commandSucceeded', (e) => { const k = e.commandName; const s = stats.get(k) ?? { n: 0, ms: 0 }; s.n++; s.ms += e.duration; stats.set(k, s); });
let seq = 0;
const w = (e: number, aspect: string, rev: number): AspectWrite => ({ requestId: `r${++seq}`, mode: 'UPSERT', urn: `urn:li:dataset:(urn:li:dataPlatform:hive,t${e},PROD)`, aspect, value: { d: `t${e} r${rev}`, cp: { a: 'b' } }, systemMetadata: { lastObserved: 1, runId: 'x' }, created: { time: 1, actor: 'urn:li:corpuser:b' }, keyAspect: { name: 'datasetKey', value: { n: e } } });
for (const rev of [0, 1, 1]) {
  stats.clear();
  const s = performance.now();
  for (let st = 0; st < 1000; st += 250) { const ws: AspectWrite[] = []; for (let e = st; e < st + 250; e++) ws.push(w(e, 'p', rev), w(e, 'o', rev)); await store.applyBatch(ws); }
  console.log('rev', rev, 'total ms', Math.round(performance.now() - s), JSON.stringify([...stats].map(([k, v]) => [k, v.n, Math.round(v.ms)])));
}
await db.dropDatabase();
await client.close();

import { MongoClient } from 'mongodb';
import { storesOf } from '@tickertape/store';
import { RollupReader } from '@tickertape/query';
const prefix = process.argv[2];
const c = new MongoClient('mongodb://127.0.0.1:27117', { monitorCommands: true }); await c.connect();
let log=null; const started=new Map();
c.on('commandStarted', e=>{ started.set(e.requestId, performance.now()); });
c.on('commandSucceeded', e=>{ if(log) log.push([e.commandName, e.duration, e.reply?.cursor?.ns, JSON.stringify(e.reply?.cursor?.firstBatch ?? '').length]); });
const HOUR=3600e3, MINUTE=60e3;
async function setup(name){ const db=c.db(`${prefix}-${name}`); const { rollups } = await storesOf(db); return { rollups, db }; }
const B = await setup('b0'), S = await setup('s0');
const docs = await B.db.collection('rollup_hour_202611').find({}, {projection:{series:1,start:1,metric:1}}).toArray();
const traffic = [...new Set(docs.filter(d=>d.metric==='traffic').map(d=>d.series))].sort().slice(0,50);
const maxStart=Math.max(...docs.map(d=>d.start.getTime()));
const fromMs = maxStart - 5*MINUTE, toMs = maxStart + 5*MINUTE;
const mk = (r)=> new RollupReader({ rollups: r }, { levels: ['minute','hour'], now: () => toMs + 2*MINUTE });
const rb = mk(B.rollups), rs = mk(S.rollups);
for (const [name, r, q] of [['B',rb,undefined],['S',rs,undefined],['Sq',rs,[0.85]],['B',rb,undefined],['S',rs,undefined],['Sq',rs,[0.85]]]) {
  for (let i=0;i<20;i++) await r.window({ series: traffic, field: 'speed', fromMs, toMs, ...(q?{quantiles:q}:{}) });
  log=[]; const t=performance.now(); const a = await r.window({ series: traffic, field: 'speed', fromMs, toMs, ...(q?{quantiles:q}:{}) }); const el=performance.now()-t;
  console.log(name, el.toFixed(1), 'pieces', a.pieces.length, JSON.stringify(log)); log=null;
}
await c.close();

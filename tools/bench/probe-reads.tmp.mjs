import { MongoClient } from 'mongodb';
import { storesOf } from '@tickertape/store';
import { RollupReader } from '@tickertape/query';
const prefix = process.argv[2];
const c = new MongoClient('mongodb://127.0.0.1:27117'); await c.connect();
const HOUR=3600e3, MINUTE=60e3;
async function setup(name){ const db=c.db(`${prefix}-${name}`); const { rollups } = await storesOf(db);
  const any = await db.collection('rollup_hour_202611').find({metric:'traffic.speed'}).limit(1).toArray();
  return { rollups, db }; }
const B = await setup('b0'), S = await setup('s0');
// series names & time range
const docs = await B.db.collection('rollup_hour_202611').find({}, {projection:{series:1,start:1,metric:1}}).toArray();
const metrics = new Set(docs.map(d=>d.metric)); 
const traffic = [...new Set(docs.filter(d=>!String(d.metric).includes('stock')).map(d=>d.series))].sort().slice(0,50);
const starts = docs.map(d=>d.start.getTime()); const maxStart=Math.max(...starts);
const fromMs = maxStart - 5*MINUTE, toMs = maxStart + 5*MINUTE;
console.log([...metrics], traffic.length, new Date(fromMs).toISOString());
const mk = (r)=> new RollupReader({ rollups: r }, { levels: ['minute','hour'], now: () => toMs + HOUR });
const rb = mk(B.rollups), rs = mk(S.rollups);
const kinds = { avgB: () => rb.window({ series: traffic, field: 'speed', fromMs, toMs }),
  avgS: () => rs.window({ series: traffic, field: 'speed', fromMs, toMs }),
  qS: () => rs.window({ series: traffic, field: 'speed', fromMs, toMs, quantiles:[0.85] }) };
const times = { avgB: [], avgS: [], qS: [] }; const cpu={avgB:0,avgS:0,qS:0};
const N = Number(process.argv[3] ?? 60);
for (let i=0;i<N;i++) for (const k of Object.keys(kinds)) { const t=performance.now(); const u=process.cpuUsage(); const a = await kinds[k](); const du=process.cpuUsage(u); cpu[k]+=du.user+du.system; times[k].push(performance.now()-t); if(i===0) console.log(k, a.examined, a.rows.length, a.rows[0]?.quantiles); }
for (const k of Object.keys(times)) { const s=times[k].slice(5).sort((a,b)=>a-b); console.log(k, 'cpu ms/read', (cpu[k]/N/1000).toFixed(2), 'p50', s[Math.floor(s.length/2)].toFixed(2), 'p90', s[Math.floor(s.length*0.9)].toFixed(2)); }
await c.close();

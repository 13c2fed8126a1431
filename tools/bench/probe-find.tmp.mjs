import { MongoClient } from 'mongodb';
const prefix = process.argv[2];
const c = new MongoClient('mongodb://127.0.0.1:27117'); await c.connect();
const b = c.db(`${prefix}-b0`).collection('rollup_hour_202611'), s = c.db(`${prefix}-s0`).collection('rollup_hour_202611');
const docs = await b.find({metric:'traffic'}, {projection:{_id:1,start:1}}).toArray();
const maxStart = Math.max(...docs.map(d=>d.start.getTime()));
const ids = docs.filter(d=>d.start.getTime()===maxStart-3600e3).map(d=>d._id).slice(0,50);
const minutes=[55,56,57,58,59];
const projWhole = {series:1}; for (const i of minutes) projWhole[`f.speed.m.${i}`]=1;
const projNoQ = {series:1}; for (const i of minutes) for (const k of ['n','sum','min','max','first','last','sq']) projNoQ[`f.speed.m.${i}.${k}`]=1;
const projExQ = {series:1}; 
const variants = { bWhole: ()=>b.find({_id:{$in:ids}},{projection:projWhole}).toArray(), sWhole: ()=>s.find({_id:{$in:ids}},{projection:projWhole}).toArray(), sNoQ: ()=>s.find({_id:{$in:ids}},{projection:projNoQ}).toArray(), bNoQ: ()=>b.find({_id:{$in:ids}},{projection:projNoQ}).toArray()};
const one = await s.findOne({_id: ids[0]}); console.log('S doc bytes', JSON.stringify(one).length, 'B doc bytes', JSON.stringify(await b.findOne({_id: ids[0]})).length, ids.length);
const t={}; for (const k in variants) t[k]=[];
for (let i=0;i<400;i++) for (const k in variants){ const s0=performance.now(); await variants[k](); t[k].push(performance.now()-s0); }
for (const k in t){ const a=t[k].slice(20).sort((x,y)=>x-y); console.log(k,"p50",a[a.length>>1].toFixed(2),"p25",a[a.length>>2].toFixed(2),"p90",a[Math.floor(a.length*0.9)].toFixed(2)); }
await c.close();

export { MongoSegmentStore, mongoSegmentStore } from './mongo-segment-store.js';

import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express from 'express';
import type { RequestListener } from 'node:http';

export const BOARD_PATH = '/admin/queues';

/**
 * Bull Board for operators: the job schedulers, recent runs and failures of the scheduler's
 * queue, at /admin/queues on the scheduler's ops port. Read-only: no retries or removals from the page.
 */
export function boardHandler(queue: Queue): RequestListener {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(queue, { readOnlyMode: true })],
    serverAdapter: adapter,
  });
  const app = express();
  app.use(BOARD_PATH, adapter.getRouter() as express.Router);
  return app;
}

import type { INestApplication } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, Response } from 'express';
import type { Queue } from 'bullmq';
import { QUEUES } from '@csv-mapper/queue';
import type { ApiConfig } from '../config/api.config';
import { OperatorAuth } from './operator-auth.service';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * bull-board for operators at /admin/queues behind HTTP Basic auth. bull-board has no auth of its
 * own, so nothing is mounted (404) unless OPERATOR_USER and OPERATOR_PASSWORD are set.
 */
export function mountQueueBoard(app: INestApplication, config: ApiConfig): void {
  if (!config.operator) return;
  const queues = Object.values(QUEUES).map((name) => app.get<Queue>(getQueueToken(name)));
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: config.operator?.readOnly ?? false })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'CSV Mapper queues' } },
  });
  // The board's page carries inline boot scripts; relax the CSP for this path only.
  const relaxCsp = (_req: Request, res: Response, next: NextFunction) => {
    res.removeHeader('Content-Security-Policy');
    next();
  };
  app.use(QUEUE_BOARD_PATH, app.get(OperatorAuth).middleware(), relaxCsp, serverAdapter.getRouter());
}

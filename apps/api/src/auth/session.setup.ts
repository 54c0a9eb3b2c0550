import type { INestApplication } from '@nestjs/common';
import session from 'express-session';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { ApiConfig } from '../config/api.config';
import { createPgSessionStore } from './pg-session.store';
import { SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_EVERY_MS, sessionCookieName } from './session-data';

/**
 * Installs express-session on the `sessions` table (made by a migration), sharing TypeORM's pg pool.
 * The cookie rolls: each request moves the 30-minute idle expiry in the cookie; the row's expiry moves
 * at most once a minute (pg-session.store.ts: no write per request), and the store ignores rows past it.
 * The 12-hour absolute limit is checked by AuthGuard.
 */
export function installSessions(app: INestApplication, config: ApiConfig): void {
  // TypeORM's Postgres driver keeps its pg pool as `master` (typed any there).
  const pool: Pool = (app.get(DataSource).driver as PostgresDriver).master;
  app.use(
    session({
      name: sessionCookieName(config.isProduction),
      secret: config.sessionSecret,
      store: createPgSessionStore({
        pool,
        tableName: 'sessions',
        idleTimeoutMs: SESSION_IDLE_TIMEOUT_MS,
        touchEveryMs: SESSION_TOUCH_EVERY_MS,
      }),
      resave: false,
      saveUninitialized: false,
      rolling: true,
      unset: 'destroy',
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.isProduction,
        path: '/',
        maxAge: SESSION_IDLE_TIMEOUT_MS,
      },
    }),
  );
}

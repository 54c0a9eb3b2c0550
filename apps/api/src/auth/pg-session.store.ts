import connectPgSimple from 'connect-pg-simple';
import session, { type SessionData } from 'express-session';

type Callback = (err?: unknown) => void;
type QueryFn = (sql: string, params: unknown[], fn: (err: Error | null, row?: StoredRow) => void) => void;
interface StoredRow {
  sess: SessionData | string;
  fresh: boolean;
}

/**
 * How long a "fresh" verdict from `get` is trusted by touches (concurrent requests of one session share
 * it). Reads count a row as fresh only if it stays fresh for this long, so the bound below holds.
 */
const VERDICT_MS = 5_000;
/** Bound on remembered verdicts (a get with no touch after it, e.g. a failed request, leaves one). */
const MAX_VERDICTS = 10_000;

/**
 * connect-pg-simple with one change: the rolling idle expiry is written about once per `touchEveryMs`
 * instead of on every request. Each read also tells whether the stored expiry is still within
 * `touchEveryMs` of a full idle period (less the verdict's own lifetime); touches then skip the UPDATE. A
 * session therefore ends at most `touchEveryMs` earlier than "idle timeout after the last request", never later: the
 * timeout is not weakened. Every read still goes to Postgres, so a logout, a password reset (every
 * session of the user deleted) or an expiry takes effect at once on every api instance.
 */
export function createPgSessionStore(options: {
  pool: connectPgSimple.PGStoreOptions['pool'];
  tableName: string;
  idleTimeoutMs: number;
  touchEveryMs: number;
}): session.Store {
  const PgStore = connectPgSimple(session);
  const idleSeconds = options.idleTimeoutMs / 1000;
  const freshForSeconds = (options.touchEveryMs - VERDICT_MS) / 1000;
  const table = `"${options.tableName.replace(/"/g, '""')}"`;

  class ThrottledTouchPgStore extends PgStore {
    /** connect-pg-simple's own query helper (on the pool it was given); its typings leave it out. */
    declare query: QueryFn;
    /** sid → when a read found its stored expiry fresh enough to skip the next touch. */
    private readonly fresh = new Map<string, number>();

    override get(sid: string, fn: (err: unknown, sess?: SessionData | null) => void): void {
      const now = Date.now() / 1000;
      this.query(
        `SELECT sess, expire >= to_timestamp($3) AS fresh FROM ${table} ` +
          'WHERE sid = $1 AND expire >= to_timestamp($2)',
        [sid, Math.ceil(now), Math.ceil(now + idleSeconds - freshForSeconds)],
        (err, row) => {
          if (err) return fn(err);
          if (!row) return fn(null, null);
          if (row.fresh) this.remember(sid);
          else this.fresh.delete(sid);
          let sess: SessionData;
          try {
            sess = typeof row.sess === 'string' ? (JSON.parse(row.sess) as SessionData) : row.sess;
          } catch {
            return this.destroy(sid, fn);
          }
          fn(null, sess);
        },
      );
    }

    override touch(sid: string, sess: SessionData, fn?: () => void): void {
      const at = this.fresh.get(sid);
      if (at !== undefined && Date.now() - at < VERDICT_MS) {
        fn?.();
        return;
      }
      this.fresh.delete(sid);
      super.touch(sid, sess, fn);
    }

    override set(sid: string, sess: SessionData, fn?: Callback): void {
      this.fresh.delete(sid);
      super.set(sid, sess, fn);
    }

    override destroy(sid: string, fn?: Callback): void {
      this.fresh.delete(sid);
      super.destroy(sid, fn);
    }

    private remember(sid: string): void {
      if (this.fresh.size >= MAX_VERDICTS) this.fresh.delete(this.fresh.keys().next().value as string);
      this.fresh.set(sid, Date.now());
    }
  }

  return new ThrottledTouchPgStore({
    pool: options.pool,
    tableName: options.tableName,
    createTableIfMissing: false,
    // The worker's hourly cleanup deletes expired rows (apps/worker/src/quota/quota.service.ts). The
    // store's own prune timer would outlive the pool when an api instance closes (a deploy, each test
    // file in one Jest process) and then fail on the ended pool.
    pruneSessionInterval: false,
  });
}

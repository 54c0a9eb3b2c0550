import { DataSource, QueryFailedError } from 'typeorm';
import {
  ApiKeyEntity,
  buildDataSourceOptions,
  PasswordResetTokenEntity,
  SavedMappingEntity,
  UsageHistoryEntity,
  UserEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from '@csv-mapper/db';

// Proves the migration on the real Postgres: defaults, uniqueness (case-insensitive email) and cascades.
describe('database schema (real Postgres)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = new DataSource(buildDataSourceOptions(process.env.DATABASE_URL as string, { poolSize: 2 }));
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  const users = () => ds.getRepository(UserEntity);
  let n = 0;
  const newUser = (over: Partial<UserEntity> = {}) => {
    n += 1;
    return users().save(
      users().create({
        username: `user${n}_${Date.now()}`,
        email: `u${n}.${Date.now()}@example.com`,
        password: 'hash',
        ...over,
      }),
    );
  };

  it('applies the spec defaults to a new user', async () => {
    const u = await newUser({ firstName: 'Ada' });
    const read = await users().findOneByOrFail({ id: u.id });
    expect(read).toMatchObject({
      plan: 'free',
      maxFileSize: 1048576,
      maxSavedMappings: 1,
      monthlyRowsUsed: 0,
      firstName: 'Ada',
      lastName: null,
      subscriptionId: null,
    });
    expect(read.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.createdAt).toBeInstanceOf(Date);
    // The password hash is never selected unless asked for.
    expect((read as Partial<UserEntity>).password).toBeUndefined();
  });

  it('rejects a duplicate username', async () => {
    const u = await newUser();
    await expect(newUser({ username: u.username })).rejects.toBeInstanceOf(QueryFailedError);
  });

  it('treats emails case-insensitively for uniqueness', async () => {
    await newUser({ email: 'Mixed.Case@Example.com' });
    await expect(newUser({ email: 'mixed.case@example.COM' })).rejects.toThrow(/UQ_users_email_lower/);
  });

  it('never lets monthly usage go negative', async () => {
    const u = await newUser();
    await expect(ds.query('UPDATE users SET monthly_rows_used = -1 WHERE id = $1', [u.id])).rejects.toThrow(
      /check/i,
    );
  });

  it('removes every row of a user when the user is deleted', async () => {
    const u = await newUser();
    await ds.getRepository(SavedMappingEntity).save({
      userId: u.id,
      name: 'Bank',
      description: null,
      templateHeaders: ['Date'],
      dataHeaders: ['Buchungstag'],
      mappings: [{ templateColumn: 'Date', dataColumn: 'Buchungstag' }],
    });
    await ds
      .getRepository(UsageHistoryEntity)
      .save({ userId: u.id, rowsProcessed: 10, fileSizeBytes: 100, filename: 'a.csv', jobId: null });
    await ds.getRepository(PasswordResetTokenEntity).save({
      userId: u.id,
      token: 'a'.repeat(64),
      expiresAt: new Date(Date.now() + 3600_000),
      usedAt: null,
    });
    await ds
      .getRepository(ApiKeyEntity)
      .save({ userId: u.id, name: 'ci', prefix: 'csvm_abcd', keyHash: 'b'.repeat(64) });
    const ep = await ds
      .getRepository(WebhookEndpointEntity)
      .save({ userId: u.id, url: 'https://example.com/hook', secret: 'whsec_x', events: ['job.completed'] });
    await ds
      .getRepository(WebhookDeliveryEntity)
      .save({ endpointId: ep.id, event: 'job.completed', messageId: 'msg_1', attempt: 1 });
    await ds.query(`INSERT INTO sessions (sid, sess, expire) VALUES ($1, $2, now() + interval '1 hour')`, [
      `s-${u.id}`,
      JSON.stringify({ userId: u.id }),
    ]);

    await users().delete({ id: u.id });

    const counts = await ds.query(
      `SELECT
        (SELECT count(*) FROM saved_mappings WHERE user_id = $1)::int AS mappings,
        (SELECT count(*) FROM usage_history WHERE user_id = $1)::int AS usage,
        (SELECT count(*) FROM password_reset_tokens WHERE user_id = $1)::int AS tokens,
        (SELECT count(*) FROM api_keys WHERE user_id = $1)::int AS keys,
        (SELECT count(*) FROM webhook_endpoints WHERE user_id = $1)::int AS endpoints,
        (SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $2)::int AS deliveries`,
      [u.id, ep.id],
    );
    expect(counts[0]).toEqual({ mappings: 0, usage: 0, tokens: 0, keys: 0, endpoints: 0, deliveries: 0 });
  });

  it('records usage for a job at most once (unique job id)', async () => {
    const u = await newUser();
    const repo = ds.getRepository(UsageHistoryEntity);
    await repo.insert({
      userId: u.id,
      rowsProcessed: 5,
      fileSizeBytes: 1,
      filename: 'a.csv',
      jobId: 'csv-jobs-abc',
    });
    await expect(
      repo.insert({
        userId: u.id,
        rowsProcessed: 5,
        fileSizeBytes: 1,
        filename: 'a.csv',
        jobId: 'csv-jobs-abc',
      }),
    ).rejects.toBeInstanceOf(QueryFailedError);
  });
});

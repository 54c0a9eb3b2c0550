import type { INestApplication } from '@nestjs/common';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { BANK_TO_BOOKS_MAPPING as BODY } from './support/bank-to-books';

// Issue 30 after saving: PUT /api/mappings/:id (what the saved mappings page sends) changes what a saved
// mapping's runs do with rows exported before (`duplicates`) and which template columns identify a row
// (`historyKeyColumns`), both read back by GET; another team's mapping is 404 and stays as it was.

describe('saved mapping history settings through PUT (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const settingsOf = async (agent: Agent, id: string) => {
    const one = (await agent.get(`/api/mappings/${id}`).expect(200)).body as Record<string, unknown>;
    const listed = (
      (await agent.get('/api/mappings').expect(200)).body as Array<Record<string, unknown>>
    ).find((m) => m.id === id);
    expect(listed).toMatchObject({ duplicates: one.duplicates, historyKeyColumns: one.historyKeyColumns });
    return { duplicates: one.duplicates, historyKeyColumns: one.historyKeyColumns };
  };

  it('PUT persists duplicates and historyKeyColumns; null key columns mean the whole row again', async () => {
    const { agent } = await signUp(app);
    const created = await agent.post('/api/mappings').set(H).send(BODY).expect(201);
    const id = created.body.id as string;
    expect(await settingsOf(agent, id)).toEqual({ duplicates: 'flag', historyKeyColumns: null });

    const put = await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, duplicates: 'skip', historyKeyColumns: ['Date', 'Amount'] })
      .expect(200);
    expect(put.body).toMatchObject({ id, duplicates: 'skip', historyKeyColumns: ['Date', 'Amount'] });
    expect(await settingsOf(agent, id)).toEqual({
      duplicates: 'skip',
      historyKeyColumns: ['Date', 'Amount'],
    });

    await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, duplicates: 'keep', historyKeyColumns: null })
      .expect(200);
    expect(await settingsOf(agent, id)).toEqual({ duplicates: 'keep', historyKeyColumns: null });
  });

  it('a PUT that leaves the history settings out keeps them; key columns its new template lacks are dropped', async () => {
    const { agent } = await signUp(app);
    const id = (await agent.post('/api/mappings').set(H).send(BODY).expect(201)).body.id as string;
    await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, duplicates: 'skip', historyKeyColumns: ['Date', 'Amount'] })
      .expect(200);
    // An API client that only renames the mapping (the body it wrote before these fields existed).
    await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, name: 'Bank to books (2027)' })
      .expect(200);
    expect(await settingsOf(agent, id)).toEqual({
      duplicates: 'skip',
      historyKeyColumns: ['Date', 'Amount'],
    });
    // The template loses Amount: the key keeps Date only.
    await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({
        ...BODY,
        templateHeaders: ['Date', 'Payee'],
        mappings: BODY.mappings.filter((m) => m.templateColumn !== 'Amount'),
      })
      .expect(200);
    expect(await settingsOf(agent, id)).toEqual({ duplicates: 'skip', historyKeyColumns: ['Date'] });
  });

  it('refuses a key column the template lacks and a mode that does not exist, keeping what was saved', async () => {
    const { agent } = await signUp(app);
    const id = (await agent.post('/api/mappings').set(H).send(BODY).expect(201)).body.id as string;
    const unknown = await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, duplicates: 'skip', historyKeyColumns: ['Date', 'Balance'] })
      .expect(400);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_COLUMN' });
    expect(unknown.body.error).toContain('Balance');
    await agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, duplicates: 'drop' })
      .expect(400);
    expect(await settingsOf(agent, id)).toEqual({ duplicates: 'flag', historyKeyColumns: null });
  });

  it("another team's mapping id answers 404 and the mapping is unchanged", async () => {
    const owner = await signUp(app);
    const id = (await owner.agent.post('/api/mappings').set(H).send(BODY).expect(201)).body.id as string;
    const other = await signUp(app);
    const res = await other.agent
      .put(`/api/mappings/${id}`)
      .set(H)
      .send({ ...BODY, name: 'Taken over', duplicates: 'skip', historyKeyColumns: ['Date'] })
      .expect(404);
    expect(res.body).toMatchObject({ code: 'MAPPING_NOT_FOUND' });
    await other.agent.get(`/api/mappings/${id}`).expect(404);
    const kept = (await owner.agent.get(`/api/mappings/${id}`).expect(200)).body as Record<string, unknown>;
    expect(kept).toMatchObject({ name: 'Bank to books', duplicates: 'flag', historyKeyColumns: null });
  });
});

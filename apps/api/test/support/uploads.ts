import { H, type Agent } from './api-test-app';

// The upload requests the api's tests make again and again. Each returns the request unsent (supertest's
// Test), so a test still says what it expects, unless the name says it checks (`…Id`, `bytesOf`).

export type FileKind = 'template' | 'data';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const bytes = (content: string | Buffer) => (Buffer.isBuffer(content) ? content : Buffer.from(content));

/** POST /api/upload with the kind as the `type` form field. */
export function uploadFile(
  agent: Agent,
  type: FileKind,
  content: string | Buffer,
  filename = `${type}.csv`,
  contentType = 'text/csv',
) {
  return agent
    .post('/api/upload')
    .set(H)
    .field('type', type)
    .attach('file', bytes(content), { filename, contentType });
}

/** POST /api/upload/:kind; a `.xlsx` name is sent as a workbook, anything else as CSV. */
export function uploadTo(agent: Agent, type: FileKind, content: string | Buffer, filename = `${type}.csv`) {
  return agent
    .post(`/api/upload/${type}`)
    .set(H)
    .attach('file', bytes(content), {
      filename,
      contentType: filename.endsWith('.xlsx') ? XLSX : 'text/csv',
    });
}

/** Uploads through POST /api/upload and returns the new file's id (201 expected). */
export async function uploadId(agent: Agent, type: FileKind, content: string | Buffer): Promise<string> {
  return (await uploadFile(agent, type, content).expect(201)).body.id as string;
}

/**
 * Uploads a template and a data file through POST /api/upload (201 expected each; named as `uploadFile`
 * names them unless `names` says), and returns both ids.
 */
export async function uploadPair(
  agent: Agent,
  template: string | Buffer,
  data: string | Buffer,
  names: { template?: string; data?: string } = {},
): Promise<{ templateFileId: string; dataFileId: string }> {
  const t = await uploadFile(agent, 'template', template, names.template).expect(201);
  const d = await uploadFile(agent, 'data', data, names.data).expect(201);
  return { templateFileId: t.body.id as string, dataFileId: d.body.id as string };
}

/** PATCH /api/upload/:id: the reading choices (encoding, delimiter, header row, sheet…). */
export function patchUpload(agent: Agent, id: string, body: Record<string, unknown>) {
  return agent.patch(`/api/upload/${id}`).set(H).send(body);
}

/** GET `url` (200 expected) with the body kept as the exact bytes sent. */
export async function bytesOf(agent: Agent, url: string): Promise<Buffer> {
  const res = await agent
    .get(url)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    })
    .expect(200);
  return res.body as Buffer;
}

import { H, waitForJob, type Agent } from './api-test-app';
import { uploadPair } from './uploads';

// The small German customer list several api tests run through a mapping: a `Kunde;Betrag` data file with
// decimal commas, mapped onto a `Name,Amount` template (Betrag read as an amount).

export const KUNDEN_TEMPLATE = 'Name,Amount\n';

export const KUNDEN_MAPPINGS = [
  { templateColumn: 'Name', dataColumn: 'Kunde' },
  { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'amount' } },
];

/** `rows` data rows `Kunde <i>;<i>,50`, numbered from `first`. */
export function kundenCsv(rows: number, first = 1): string {
  const lines = ['Kunde;Betrag'];
  for (let i = first; i < first + rows; i++) lines.push(`Kunde ${i};${i},50`);
  return lines.join('\n') + '\n';
}

/** Uploads the template (t.csv) and `rows` rows (kunden.csv) through POST /api/upload (201 expected each). */
export function uploadKunden(agent: Agent, rows: number, first = 1) {
  return uploadPair(agent, KUNDEN_TEMPLATE, kundenCsv(rows, first), {
    template: 't.csv',
    data: 'kunden.csv',
  });
}

/** Uploads `rows` rows (numbered from `first`), runs them as a background job (202 expected) and waits for it. */
export async function runKundenJob(agent: Agent, rows: number, first = 1) {
  const files = await uploadKunden(agent, rows, first);
  const queued = await agent
    .post('/api/process')
    .set(H)
    .send({ ...files, mappings: KUNDEN_MAPPINGS })
    .expect(202);
  const jobId = queued.body.jobId as string;
  return { jobId, view: await waitForJob(agent, jobId) };
}

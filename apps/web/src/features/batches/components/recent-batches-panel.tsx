import type { BatchView } from '@csv-mapper/contracts';
import { ProgressListCard, ProgressRow } from '../../../components/progress-list';
import { useBatches } from '../api/batches';
import { batchSummary } from './batch-progress';

function BatchRow({ batch }: { batch: BatchView }) {
  const done = batch.state === 'completed';
  const when = new Date(batch.createdAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <ProgressRow
      testId="recent-batch"
      title={
        <>
          {batch.mappingName ?? batch.templateFilename ?? 'Bulk upload'} · {when}
        </>
      }
      badge={{
        label: done ? 'Finished' : 'Processing',
        palette: done ? (batch.totals.completed > 0 ? 'green' : 'red') : 'blue',
      }}
      progress={done ? undefined : { value: batch.totals.progress, label: 'Progress of the bulk upload' }}
      summary={
        <>
          {batchSummary(batch)}
          {batch.rejected.length > 0 ? ` · ${batch.rejected.length} not processed` : ''}
        </>
      }
      download={
        batch.resultZipUrl
          ? { href: batch.resultZipUrl, label: 'Download all (ZIP)', color: 'blue.fg' }
          : undefined
      }
    />
  );
}

/** The dashboard's list of recent bulk uploads (Business and Enterprise), with live progress. */
export function RecentBatchesPanel() {
  return (
    <ProgressListCard
      title="Bulk uploads"
      list={useBatches()}
      failed="Bulk uploads could not be loaded. Refresh the page to try again."
      empty="No bulk uploads yet. In the mapper, add several data files with the same columns and one mapping runs on all of them; you download one ZIP."
      row={(b) => <BatchRow key={b.id} batch={b} />}
    />
  );
}

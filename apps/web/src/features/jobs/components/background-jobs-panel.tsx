import type { JobView } from '@csv-mapper/contracts';
import { JOB_STATE_BADGE, ProgressListCard, ProgressRow } from '../../../components/progress-list';
import { useJobs } from '../api/get-jobs';

function JobRow({ job }: { job: JobView }) {
  const running = job.state === 'active' || job.state === 'queued';
  return (
    <ProgressRow
      title={job.filename}
      titleText={job.filename}
      badge={JOB_STATE_BADGE[job.state]}
      progress={running ? { value: job.progress, label: `Progress of ${job.filename}` } : undefined}
      summary={
        <>
          {job.rowsProcessed.toLocaleString('en-GB')} of {job.totalRows.toLocaleString('en-GB')} rows
          {job.warnings > 0 ? ` · ${job.warnings.toLocaleString('en-GB')} warnings` : ''}
        </>
      }
      download={job.resultUrl ? { href: job.resultUrl, label: 'Download CSV', color: 'blue.600' } : undefined}
      error={job.error ? { text: job.error, color: 'red.600' } : undefined}
    />
  );
}

/** Recent background jobs with live progress; files above the sync limit (and async requests) run here. */
export function BackgroundJobsPanel() {
  return (
    <ProgressListCard
      title="Background jobs"
      list={useJobs()}
      failed="Background jobs could not be loaded. Refresh the page to try again."
      empty="No background jobs yet. Large files are processed here, so you can leave the page and come back for the result; results are kept for 1 hour."
      row={(job) => <JobRow key={job.id} job={job} />}
    />
  );
}

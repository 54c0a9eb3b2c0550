import { Box, Button, Card, Checkbox, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { JobView, TemplateRules, Warning } from '@csv-mapper/contracts';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { DownloadIcon, TrashIcon } from '../../../components/icons';
import { apiJson, errorDescription } from '../../../lib/api-client';
import { downloadText } from '../../../lib/download';
import { getJobIssues, patchJobCells, rerunJob } from '../api/job-issues';
import { PagedReview } from '../utils/paged-review';
import { SyncReview, type ReviewFilter } from '../utils/review-model';
import { ReviewGrid, type GridRow } from './review-grid';
import { plural } from '../../../lib/plural';

// Step 4's review: the rows with problems in an editable grid, filters, "apply to all", row deletion and the
// corrected download. A sync run is reviewed in the browser (its whole output is here); a background run
// through the jobs API (issues paged in, the patch stored beside the upload, a corrected re-run).

export interface ReviewPanelProps {
  /** Template columns in output order. */
  columns: string[];
  rules?: TemplateRules;
  filename: string;
  /** The sync answer's CSV and warnings. */
  csvData?: string;
  warnings?: Warning[];
  /** A background run to review through the jobs API instead. */
  jobId?: string;
  delimiter?: string;
  formulaProtection?: boolean;
}

const PAGE_AHEAD = 40;

interface LastEdit {
  col: number;
  from: string;
  to: string;
  others: number;
}

function correctedName(filename: string): string {
  return /\.csv$/i.test(filename)
    ? filename.replace(/\.csv$/i, '_corrected.csv')
    : `${filename}_corrected.csv`;
}

function FilterSelect({
  label,
  value,
  options,
  onChange,
  all,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
  all: string;
}) {
  return (
    <NativeSelect.Root size="sm" width={{ base: 'full', sm: '48' }}>
      <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export function ReviewPanel(props: ReviewPanelProps) {
  useEffect(() => {
    performance.mark('review-panel:mount');
  }, []);
  return props.jobId ? <JobReview {...props} jobId={props.jobId} /> : <SyncReviewPanel {...props} />;
}

function Shell({
  summary,
  toolbar,
  applyBar,
  grid,
  footer,
}: {
  summary: string;
  toolbar: React.ReactNode;
  applyBar: React.ReactNode;
  grid: React.ReactNode;
  footer: React.ReactNode;
}) {
  return (
    <Card.Root data-testid="review-panel" mt="6">
      <Card.Body gap="4">
        <Stack gap="1">
          <Text as="h2" fontSize="lg" fontWeight="semibold">
            Review and fix
          </Text>
          <Text color="fg.muted" fontSize="sm" aria-live="polite" data-testid="review-summary">
            {summary}
          </Text>
        </Stack>
        <HStack gap="3" flexWrap="wrap" align="center">
          {toolbar}
        </HStack>
        {applyBar}
        {grid}
        <Text fontSize="xs" color="fg.muted">
          Arrows move · Enter or typing edits · Enter saves · Escape cancels · Shift+Space selects the row
        </Text>
        <HStack gap="3" flexWrap="wrap" justify="space-between">
          {footer}
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * The column and rule filters and the button deleting the selected rows: the toolbar both reviews show
 * (the sync one adds "Show all rows" before it).
 */
function FiltersAndDelete<F extends { column?: string; rule?: string }>({
  columns,
  ruleNames,
  filter,
  setFilter,
  selected,
  onDelete,
}: {
  columns: string[];
  ruleNames: string[];
  filter: F;
  setFilter: (update: (f: F) => F) => void;
  selected: ReadonlySet<number>;
  onDelete: () => void;
}) {
  return (
    <>
      <FilterSelect
        label="Filter by column"
        all="All columns"
        value={filter.column ?? ''}
        options={columns}
        onChange={(v) => setFilter((f) => ({ ...f, column: v || undefined }))}
      />
      <FilterSelect
        label="Filter by rule"
        all="All rules"
        value={filter.rule ?? ''}
        options={ruleNames}
        onChange={(v) => setFilter((f) => ({ ...f, rule: v || undefined }))}
      />
      <Button
        size="sm"
        variant="outline"
        colorPalette="red"
        disabled={selected.size === 0}
        onClick={onDelete}
      >
        <TrashIcon /> Delete {selected.size > 0 ? plural(selected.size, 'row') : 'rows'}
      </Button>
    </>
  );
}

/** "Apply to all": after an edit, offers the same change for the other cells of the column with that value. */
function ApplyBar({
  edit,
  columns,
  review,
  setEdit,
  onApplied,
}: {
  edit: LastEdit | null;
  columns: string[];
  review: { applyToAll(col: number, from: string, to: string): unknown };
  setEdit: (edit: LastEdit | null) => void;
  onApplied: () => void;
}) {
  const onDismiss = () => setEdit(null);
  const onApply = () => {
    if (!edit) return;
    review.applyToAll(edit.col, edit.from, edit.to);
    setEdit(null);
    onApplied();
  };
  if (!edit || edit.others === 0) return null;
  return (
    <HStack
      gap="3"
      flexWrap="wrap"
      bg="blue.subtle"
      borderRadius="md"
      px="3"
      py="2"
      fontSize="sm"
      data-testid="apply-to-all"
    >
      <Text flex="1" minW="0">
        {plural(edit.others, 'other cell')} in {columns[edit.col]} also hold “{edit.from}”.
      </Text>
      <Button size="xs" colorPalette="blue" onClick={onApply}>
        Change all to “{edit.to}”
      </Button>
      <Button size="xs" variant="ghost" onClick={onDismiss}>
        Dismiss
      </Button>
    </HStack>
  );
}

function SyncReviewPanel({
  columns: _columns,
  rules,
  filename,
  csvData = '',
  warnings = [],
  delimiter = ',',
  formulaProtection = true,
}: ReviewPanelProps) {
  const review = useMemo(
    () => new SyncReview(csvData, warnings, rules, delimiter, formulaProtection),
    [csvData, warnings, rules, delimiter, formulaProtection],
  );
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const [filter, setFilter] = useState<ReviewFilter>({});
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [lastEdit, setLastEdit] = useState<LastEdit | null>(null);
  const [deletions, bumpDeletions] = useReducer((n: number) => n + 1, 0);
  const version = review.version;
  // The shown rows change with the filter and deletions, not with edits: a row fixed in place stays
  // where it is (now without problems) instead of vanishing under the cursor.
  const rows = useMemo(() => review.rows(filter), [review, filter, deletions]);
  const counts = review.counts();

  const getRow = useCallback(
    (index: number): GridRow | undefined => {
      const row = rows[index];
      if (row === undefined) return undefined;
      return {
        row,
        cells: review.columns.map((_, c) => review.value(row, c)),
        issues: review.issuesOf(row),
        edited: review.columns.map((_, c) => review.isEdited(row, c)),
      };
    },
    [rows, review],
  );

  const commit = (index: number, col: number, value: string) => {
    const row = rows[index];
    if (row === undefined) return;
    const from = review.value(row, col);
    if (from === value) return;
    review.edit(row, col, value);
    setLastEdit({ col, from, to: value, others: review.countValue(col, from) });
    bump();
  };

  const toggle = (row: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(row)) next.delete(row);
      else next.add(row);
      return next;
    });

  const summary =
    counts.problems === 0
      ? `No problems left in ${plural(review.rowCount - counts.deletedRows, 'row')}.`
      : `${plural(counts.problems, 'problem')} in ${plural(counts.problemRows, 'row')} of ${review.rowCount.toLocaleString('en-GB')}.`;

  return (
    <Shell
      summary={summary}
      toolbar={
        <>
          <Checkbox.Root
            size="sm"
            checked={filter.showAll ?? false}
            onCheckedChange={(d) => setFilter((f) => ({ ...f, showAll: d.checked === true }))}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Show all rows</Checkbox.Label>
          </Checkbox.Root>
          <FiltersAndDelete
            columns={review.columns}
            ruleNames={review.ruleNames()}
            filter={filter}
            setFilter={setFilter}
            selected={selected}
            onDelete={() => {
              review.deleteRows([...selected]);
              setSelected(new Set());
              bumpDeletions();
            }}
          />
        </>
      }
      applyBar={
        <ApplyBar
          edit={lastEdit}
          columns={review.columns}
          review={review}
          setEdit={setLastEdit}
          onApplied={bump}
        />
      }
      grid={
        rows.length === 0 ? (
          <Box borderWidth="1px" borderRadius="md" p="6" textAlign="center" color="fg.muted">
            {filter.showAll ? 'No rows.' : 'No rows with problems match this filter.'}
          </Box>
        ) : (
          <ReviewGrid
            label="Rows with problems"
            columns={review.columns}
            rowCount={rows.length}
            getRow={getRow}
            check={(index, col, value) => review.check(rows[index] ?? 0, col, value)}
            onCommit={commit}
            selected={selected}
            onToggleSelect={toggle}
            version={version}
          />
        )
      }
      footer={
        <>
          <Text fontSize="sm" color="fg.muted" data-testid="review-counts">
            {plural(counts.editedCells, 'cell')} edited · {plural(counts.deletedRows, 'row')} deleted
          </Text>
          <Button
            colorPalette="blue"
            disabled={counts.editedCells === 0 && counts.deletedRows === 0}
            onClick={() => downloadText(review.toCsv(), correctedName(filename))}
          >
            <DownloadIcon /> Download corrected CSV
          </Button>
        </>
      }
    />
  );
}

type RerunState =
  | { state: 'idle' }
  | { state: 'saving' }
  | { state: 'running'; jobId: string }
  | { state: 'done'; job: JobView }
  | { state: 'failed'; message: string };

function JobReview({ columns, rules, jobId }: ReviewPanelProps & { jobId: string }) {
  const [filter, setFilter] = useState<{ column?: string; rule?: string }>({});
  const review = useMemo(() => new PagedReview(columns, rules), [columns, rules, filter]);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [lastEdit, setLastEdit] = useState<LastEdit | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rerun, setRerun] = useState<RerunState>({ state: 'idle' });
  const [ruleNames, setRuleNames] = useState<string[]>([]);
  // The review whose next page is on its way: a new review (another filter) starts its own first page, and
  // an older review's answer never lets the current one ask for the same page twice.
  const loading = useRef<PagedReview | null>(null);

  const loadMore = useCallback(() => {
    if (loading.current === review || review.done) return;
    loading.current = review;
    getJobIssues(jobId, { ...filter, cursor: review.nextCursor })
      .then(
        (page) => {
          review.addPage(page.issues, page.nextCursor, page.total);
          setRuleNames((names) => {
            const all = new Set(names);
            page.issues.forEach((i) => all.add(i.rule ?? 'other'));
            return all.size === names.length ? names : [...all].sort();
          });
          bump();
        },
        (err: unknown) => setError(errorDescription(err, 'The problems could not be loaded.')),
      )
      .finally(() => {
        if (loading.current === review) loading.current = null;
      });
  }, [jobId, filter, review]);

  useEffect(() => {
    loadMore();
  }, [loadMore]);

  const onRangeShown = useCallback(
    (last: number) => {
      if (last >= review.count() - PAGE_AHEAD) loadMore();
    },
    [review, loadMore],
  );

  // Poll the corrected run until it ends.
  useEffect(() => {
    if (rerun.state !== 'running') return;
    const timer = window.setInterval(() => {
      apiJson<JobView>('GET', `/api/jobs/${encodeURIComponent(rerun.jobId)}`).then(
        (job) => {
          if (job.state === 'completed') setRerun({ state: 'done', job });
          else if (job.state === 'failed' || job.state === 'cancelled')
            setRerun({ state: 'failed', message: job.error ?? 'The corrected run failed.' });
        },
        (err: unknown) =>
          setRerun({ state: 'failed', message: errorDescription(err, 'The corrected run failed.') }),
      );
    }, 1000);
    return () => window.clearInterval(timer);
  }, [rerun]);

  const patch = review.patch();
  const count = review.count();
  const toggle = (row: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(row)) next.delete(row);
      else next.add(row);
      return next;
    });

  const saveAndRerun = async () => {
    setRerun({ state: 'saving' });
    try {
      await patchJobCells(jobId, patch);
      const { jobId: next } = await rerunJob(jobId);
      setRerun({ state: 'running', jobId: next });
    } catch (err) {
      setRerun({ state: 'failed', message: errorDescription(err, 'The edits could not be saved.') });
    }
  };

  const summary = error
    ? error
    : !review.started
      ? 'Loading the problems…'
      : review.done
        ? `${plural(review.problems(), 'problem')} in ${plural(count, 'row')}.`
        : `${plural(review.total ?? review.problems(), 'problem')} in this run; ${plural(count, 'row')} loaded so far (more load as you scroll).`;

  return (
    <Shell
      summary={summary}
      toolbar={
        <FiltersAndDelete
          columns={columns}
          ruleNames={ruleNames}
          filter={filter}
          setFilter={setFilter}
          selected={selected}
          onDelete={() => {
            review.deleteRows([...selected]);
            setSelected(new Set());
            bump();
          }}
        />
      }
      applyBar={
        <ApplyBar edit={lastEdit} columns={columns} review={review} setEdit={setLastEdit} onApplied={bump} />
      }
      grid={
        review.done && count === 0 ? (
          <Box borderWidth="1px" borderRadius="md" p="6" textAlign="center" color="fg.muted">
            No rows with problems match this filter.
          </Box>
        ) : (
          <ReviewGrid
            label="Rows with problems"
            columns={columns}
            rowCount={review.done ? count : count + 1}
            getRow={(i) => review.gridRow(i)}
            onRangeShown={onRangeShown}
            check={(_, col, value) => review.check(col, value)}
            onCommit={(index, col, value) => {
              const before = review.value(index, col);
              if (before === value) return;
              review.edit(index, col, value);
              if (before !== undefined)
                setLastEdit({ col, from: before, to: value, others: review.countValue(col, before) });
              bump();
            }}
            selected={selected}
            onToggleSelect={toggle}
            version={review.version}
          />
        )
      }
      footer={
        <>
          <Text fontSize="sm" color="fg.muted" data-testid="review-counts">
            {plural(patch.edits.length, 'cell')} edited · {plural(patch.deleteRows.length, 'row')} deleted
            {rerun.state === 'failed' ? ` · ${rerun.message}` : ''}
          </Text>
          {rerun.state === 'done' && rerun.job.resultUrl ? (
            <Button asChild colorPalette="blue">
              <a href={rerun.job.resultUrl} download={rerun.job.filename}>
                <DownloadIcon /> Download corrected CSV
              </a>
            </Button>
          ) : (
            <Button
              colorPalette="blue"
              loading={rerun.state === 'saving' || rerun.state === 'running'}
              loadingText="Re-running…"
              disabled={patch.edits.length === 0 && patch.deleteRows.length === 0}
              onClick={() => void saveAndRerun()}
            >
              Save edits and re-run
            </Button>
          )}
        </>
      }
    />
  );
}

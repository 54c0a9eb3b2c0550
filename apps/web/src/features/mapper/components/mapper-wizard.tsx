import { Box, Button, HStack, Stack } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type {
  DuplicatesMode,
  PreviewResponse,
  QueuedResponse,
  TemplateView,
  UploadType,
} from '@csv-mapper/contracts';
import { formatPlanFileSize, type PlanLimits } from '@csv-mapper/domain';
import { showToast } from '../../../components/toaster';
import { errorDescription, isUnauthorizedError } from '../../../lib/api-client';
import { previewMapping, processMapping } from '../api/process-mapping';
import { getSavedMapping, useSaveMapping } from '../api/saved-mapping';
import { directUpload, UploadCancelledError, type UploadProgress } from '../api/direct-upload';
import { deleteUpload, uploadFile } from '../api/upload-file';
import { ReviewPanel } from '../../review/components/review-panel';
import {
  VIRTUAL_TEMPLATE_PREFIX,
  builtInOf,
  useMapperState,
  type MapperFile,
  type MapperResult,
  type Step,
} from '../hooks/use-mapper-state';
import { useRecognisedSources } from '../hooks/use-recognised-sources';
import { useServerSuggestions } from '../hooks/use-server-suggestions';
import { useUnauthorizedRedirect } from '../hooks/use-unauthorized-redirect';
import { megabytes } from '../utils/download';
import { uploadFailure } from '../utils/upload-error';
import {
  FileTooLargeDialog,
  LimitReachedDialog,
  RowLimitDialog,
  SaveMappingDialog,
  type FileTooLargeInfo,
} from './mapper-dialogs';
import { MappingBoard } from './mapping-board';
import { MappingPreview } from './mapping-preview';
import { MappingProgressCard } from './mapping-progress-card';
import { RulesEditor } from './rules-editor';
import { RecognisedSources } from './recognised-sources';
import { SourceInUseNote } from './source-in-use-note';
import {
  BackgroundJobProgress,
  PROGRESS_STAGES,
  PROGRESS_STEP_MS,
  ProcessingProgress,
} from './processing-step';
import { ResultScreen } from './result/result-screen';
import { DEFAULT_OUTPUT_CHOICE, requestOptions, type OutputChoice } from '../utils/output-options';
import { createBatch, MAX_BATCH_FILES } from '../../batches/api/batches';
import { BatchProgress } from '../../batches/components/batch-progress';
import { BulkFilesPanel } from '../../batches/components/bulk-files-panel';
import { useBulkFiles } from '../../batches/hooks/use-bulk-files';
import { ReadingPanel } from './reading-panel';
import { TemplatePicker } from './template-picker';
import { UploadZone } from './upload-zone';
import { WizardProgress } from './wizard-progress';
import { plural } from '../../../lib/plural';

const PREVIEW_DEBOUNCE_MS = 350;

export interface MapperWizardProps {
  plan: string;
  planLimits: PlanLimits | null;
  savedMappingsCount: number;
  signedIn: boolean;
}

/** The four-step mapper of spec §2/§4. */
export function MapperWizard({ plan, planLimits, savedMappingsCount, signedIn }: MapperWizardProps) {
  const [state, dispatch] = useMapperState();
  const [uploading, setUploading] = useState<UploadType | null>(null);
  const [uploadProgress, setUploadProgress] = useState<UploadProgress | null>(null);
  const uploadAbort = useRef<AbortController | null>(null);
  const [tooLarge, setTooLarge] = useState<FileTooLargeInfo | null>(null);
  const [pendingRows, setPendingRows] = useState<MapperFile | null>(null);
  const [saveOpen, setSaveOpen] = useState(false);
  const [limitOpen, setLimitOpen] = useState(false);
  const [progress, setProgress] = useState(PROGRESS_STAGES[0]);
  const [queued, setQueued] = useState<QueuedResponse | null>(null);
  const [reviewJobId, setReviewJobId] = useState<string | null>(null);
  const [preview, setPreview] = useState<PreviewResponse | null>(null);
  const [previewLoading, setPreviewLoading] = useState(false);
  /** Why the last preview was refused (e.g. a combine pattern left empty), for the preview card. */
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [outputChoice, setOutputChoice] = useState<OutputChoice>(DEFAULT_OUTPUT_CHOICE);
  const [params, setParams] = useSearchParams();
  const relogin = useUnauthorizedRedirect();
  const saveMapping = useSaveMapping();
  const loadedId = useRef<string | null>(null);
  // Bulk uploads (plans with background processing): more data files for the same mapping, one batch.
  const bulk = useBulkFiles();
  const [batchId, setBatchId] = useState<string | null>(null);
  const bulkAllowed = signedIn && planLimits?.asyncProcessing === true;

  const { step, template, data, mappings, suggested, result, templateRules } = state;
  const builtIn = builtInOf(template);
  const { reasons } = useServerSuggestions(template, data, dispatch, relogin);
  const sources = useRecognisedSources({
    signedIn,
    templateHeaders: template?.headers ?? null,
    dispatch,
    relogin,
  });
  // The grid checks edits against the built-in template's own rules and those the user added.
  const reviewRules = {
    ...Object.fromEntries(
      (builtIn?.columns ?? []).flatMap((c) => {
        const rules = (c as { rules?: object }).rules;
        return rules ? [[c.name, rules]] : [];
      }),
    ),
    ...templateRules,
  };
  const maxSizeText = planLimits ? formatPlanFileSize(planLimits.maxFileSize) : '1MB';

  // ?loadMapping=<id> (spec §4): a virtual template from the saved headers, the saved pairs, toast.
  const loadMappingId = params.get('loadMapping');
  const usingSaved = sources.using;
  useEffect(() => {
    if (!loadMappingId || loadedId.current === loadMappingId) return;
    loadedId.current = loadMappingId;
    getSavedMapping(loadMappingId).then(
      (m) => {
        dispatch({
          type: 'loadMapping',
          name: m.name,
          templateHeaders: m.templateHeaders,
          mappings: m.mappings,
          templateRules: m.templateRules,
        });
        usingSaved(m.id, m.name);
        showToast({ title: 'Mapping loaded', description: m.name, type: 'success' });
      },
      (err: unknown) => {
        if (isUnauthorizedError(err)) return relogin();
        showToast({
          title: 'Failed to load mapping',
          description: errorDescription(err, 'The saved mapping could not be loaded.'),
          type: 'error',
        });
      },
    );
  }, [loadMappingId, dispatch, relogin, usingSaved]);

  const offerSources = sources.offer;
  const accept = useCallback(
    (file: MapperFile) => {
      if (file.type === 'template') dispatch({ type: 'templateUploaded', file });
      else {
        dispatch({ type: 'dataUploaded', file });
        offerSources(file);
      }
    },
    [dispatch, offerSources],
  );

  /** The same upload read another way (reading panel): new headers, so suggestions and match again. */
  const reread = (file: MapperFile) => {
    setPreview(null);
    dispatch({ type: 'fileReread', file });
    sources.offer(file);
  };
  const readingPanel = (file: MapperFile | null) =>
    file ? <ReadingPanel kind={file.type} file={file} onReread={reread} onUnauthorized={relogin} /> : null;

  const onFile = async (file: File, type: UploadType) => {
    setUploading(type);
    try {
      // Enterprise: straight to object storage with a progress bar (null = the server keeps files in memory).
      let uploaded = null;
      if (planLimits?.s3Uploads) {
        const abort = new AbortController();
        uploadAbort.current = abort;
        uploaded = await directUpload(file, type, setUploadProgress, abort.signal);
      }
      uploaded ??= await uploadFile(file, type);
      showToast({
        title: 'File uploaded successfully',
        description: `${uploaded.filename}: ${plural(uploaded.headers.length, 'column')}`,
        type: 'success',
      });
      if (uploaded.exceedsRowLimit && uploaded.actualRows !== undefined && uploaded.maxRows !== undefined) {
        setPendingRows(uploaded);
      } else accept(uploaded);
    } catch (err) {
      if (err instanceof UploadCancelledError) {
        showToast({ title: 'Upload cancelled', description: file.name, type: 'info' });
        return;
      }
      const failure = uploadFailure(err, planLimits ? maxSizeText : '25MB');
      if (failure.kind === 'unauthorized') return relogin();
      if (failure.kind === 'tooLarge') {
        setTooLarge({ fileName: file.name, size: megabytes(file.size), limit: failure.limit });
      } else {
        showToast({ title: 'Upload failed', description: failure.description, type: 'error' });
      }
    } finally {
      setUploading(null);
      setUploadProgress(null);
      uploadAbort.current = null;
    }
  };
  const cancelUpload = () => uploadAbort.current?.abort();

  /** Several data files at once: the first drives the mapping, the others join the bulk upload. */
  const onDataFiles = async (files: File[]) => {
    await onFile(files[0], 'data');
    await bulk.add(files.slice(1), MAX_BATCH_FILES - 1);
  };

  const removeTemplate = () => {
    if (template && !template.id.startsWith(VIRTUAL_TEMPLATE_PREFIX)) void deleteUpload(template.id);
    if (data) void deleteUpload(data.id);
    bulk.clear(true);
    setPreview(null);
    sources.clear();
    dispatch({ type: 'removeTemplate' });
    if (loadMappingId) setParams({}, { replace: true });
  };
  const removeData = () => {
    if (data) void deleteUpload(data.id);
    bulk.clear(true);
    setPreview(null);
    sources.clear();
    dispatch({ type: 'removeData' });
  };
  const pickTemplate = (t: TemplateView) =>
    dispatch({
      type: 'templateUploaded',
      file: {
        id: `${VIRTUAL_TEMPLATE_PREFIX}${t.id}`,
        filename: t.name,
        headers: t.headers,
        type: 'template',
        rowCount: 0,
        uploadedAt: new Date().toISOString(),
      },
    });

  const savedId = sources.inUse?.id;
  const request = useCallback(() => {
    if (!template || !data) return null;
    return {
      templateFileId: template.id,
      dataFileId: data.id,
      mappings,
      ...(savedId ? { mappingId: savedId } : {}),
      ...(template.id.startsWith(VIRTUAL_TEMPLATE_PREFIX) ? { templateHeaders: template.headers } : {}),
      ...(Object.keys(templateRules).length > 0 ? { templateRules } : {}),
    };
  }, [template, data, mappings, templateRules, savedId]);

  // Live preview, debounced; the last answer wins.
  useEffect(() => {
    const body = request();
    if (step !== 3 || !body || body.mappings.length === 0) {
      setPreview(null);
      setPreviewError(null);
      return;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      setPreviewLoading(true);
      previewMapping(body)
        .then(
          (p) => {
            if (!current) return;
            setPreview(p);
            setPreviewError(null);
          },
          (err: unknown) => {
            if (!current) return;
            if (isUnauthorizedError(err)) relogin();
            setPreview(null);
            setPreviewError(errorDescription(err, 'The preview could not be made for these mappings.'));
          },
        )
        .finally(() => {
          if (current) setPreviewLoading(false);
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [request, step, relogin]);

  const finish = useCallback(
    (res: MapperResult) => {
      setQueued(null);
      setProgress({ percent: 100, text: 'Complete!' });
      dispatch({ type: 'processed', result: res });
      if (res.limitExceeded && res.rowsProcessed < res.totalRowsInFile) {
        setLimitOpen(true);
        showToast({
          title: 'CSV generated with limits',
          description: `Processed ${res.rowsProcessed} of ${res.totalRowsInFile} rows due to plan limits.`,
          type: 'error',
        });
      } else {
        showToast({
          title: 'CSV generated successfully',
          description: `${res.rowsProcessed} rows processed`,
          type: 'success',
        });
      }
    },
    [dispatch],
  );

  const jobFailed = useCallback(
    (message: string) => {
      setQueued(null);
      dispatch({ type: 'processFailed' });
      showToast({ title: 'Processing failed', description: message, type: 'error' });
    },
    [dispatch],
  );

  const generate = async (choice: OutputChoice = outputChoice) => {
    const base = request();
    const options = requestOptions(choice);
    const body = base ? { ...base, ...(options ? { options } : {}) } : null;
    if (!body) {
      showToast({
        title: 'Processing failed',
        description: 'Please upload both template and data files',
        type: 'error',
      });
      return;
    }
    const missing = template
      ? template.headers.filter((h) => !mappings.some((m) => m.templateColumn === h))
      : [];
    if (missing.length > 0) {
      showToast({
        title: 'Processing failed',
        description: `Please map all template columns: ${missing.join(', ')}`,
        type: 'error',
      });
      return;
    }
    if (bulk.files.length > 0) {
      dispatch({ type: 'generate' });
      const { dataFileId, ...rest } = body;
      try {
        const created = await createBatch({
          ...rest,
          dataFileIds: [dataFileId, ...bulk.files.map((f) => f.id)],
        });
        setBatchId(created.batchId);
      } catch (err) {
        dispatch({ type: 'processFailed' });
        if (isUnauthorizedError(err)) return relogin();
        showToast({
          title: 'Processing failed',
          description: errorDescription(err, 'The bulk upload could not be started.'),
          type: 'error',
        });
      }
      return;
    }
    dispatch({ type: 'generate' });
    setReviewJobId(null);
    setProgress(PROGRESS_STAGES[0]);
    const stages = (async () => {
      for (let i = 1; i < PROGRESS_STAGES.length; i++) {
        await new Promise((r) => window.setTimeout(r, PROGRESS_STEP_MS));
        setProgress(PROGRESS_STAGES[i]);
      }
      await new Promise((r) => window.setTimeout(r, PROGRESS_STEP_MS));
    })();
    try {
      const res = await processMapping(body);
      if ('jobId' in res) {
        setQueued(res);
        setReviewJobId(res.jobId);
        return;
      }
      await stages;
      finish(res);
    } catch (err) {
      dispatch({ type: 'processFailed' });
      if (isUnauthorizedError(err)) return relogin();
      showToast({
        title: 'Processing failed',
        description: errorDescription(err, 'Failed to process mapping'),
        type: 'error',
      });
    }
  };

  const save = async (name: string, description: string, duplicates: DuplicatesMode): Promise<boolean> => {
    if (!template) return false;
    try {
      const saved = await saveMapping({
        name,
        ...(description ? { description } : {}),
        templateHeaders: template.headers,
        dataHeaders: data?.headers ?? [],
        mappings,
        ...(Object.keys(templateRules).length > 0 ? { templateRules } : {}),
        duplicates,
      });
      sources.using(saved.id, saved.name);
      showToast({
        title: 'Mapping saved successfully',
        description: 'You can reuse this mapping configuration later.',
        type: 'success',
      });
      return true;
    } catch (err) {
      if (isUnauthorizedError(err)) {
        relogin();
        return false;
      }
      showToast({
        title: 'Save failed',
        description: errorDescription(err, 'Failed to save mapping'),
        type: 'error',
      });
      return false;
    }
  };

  const canGoTo = (s: Step) =>
    s <= step || (s === 2 && template !== null) || (s === 3 && template !== null && data !== null);
  const atSaveLimit =
    planLimits !== null &&
    planLimits.maxSavedMappings !== -1 &&
    savedMappingsCount >= planLimits.maxSavedMappings;
  const allMapped =
    template !== null && template.headers.length > 0 && mappings.length === template.headers.length;
  return (
    <Box>
      <WizardProgress step={step} canGoTo={canGoTo} onGoTo={(s) => dispatch({ type: 'goTo', step: s })} />

      {step === 1 ? (
        <>
          <UploadZone
            kind="template"
            file={template}
            uploading={uploading === 'template'}
            progress={uploading === 'template' ? uploadProgress : null}
            onCancel={cancelUpload}
            maxSizeText={maxSizeText}
            onFile={(f) => void onFile(f, 'template')}
            onRemove={removeTemplate}
          >
            {readingPanel(template)}
          </UploadZone>
          {template ? null : <TemplatePicker onPick={pickTemplate} />}
        </>
      ) : null}

      {step === 2 ? (
        <Stack gap="4">
          {template ? (
            <UploadZone
              kind="template"
              file={template}
              uploading={false}
              maxSizeText={maxSizeText}
              onFile={() => undefined}
              onRemove={removeTemplate}
            >
              {readingPanel(template)}
            </UploadZone>
          ) : null}
          <UploadZone
            kind="data"
            file={data}
            uploading={uploading === 'data' || bulk.uploading}
            progress={uploading === 'data' ? uploadProgress : null}
            onCancel={cancelUpload}
            maxSizeText={maxSizeText}
            onFile={(f) => void onFile(f, 'data')}
            onRemove={removeData}
            multiple={bulkAllowed}
            onFiles={(fs) => void onDataFiles(fs)}
          >
            {readingPanel(data)}
          </UploadZone>
        </Stack>
      ) : null}

      {step === 3 && template && data ? (
        <Stack gap="6">
          <RecognisedSources
            matches={loadMappingId ? [] : sources.matches}
            onUse={(m) => void sources.apply(m)}
          />
          <SourceInUseNote source={sources.inUse} />
          <MappingProgressCard mapped={mappings.length} total={template.headers.length} />
          {bulkAllowed ? (
            <BulkFilesPanel
              primary={data}
              extras={bulk.files}
              uploading={bulk.uploading}
              onAdd={(fs) => void bulk.add(fs, MAX_BATCH_FILES - 1 - bulk.files.length)}
              onRemove={bulk.remove}
            />
          ) : null}
          <MappingBoard
            templateHeaders={template.headers}
            dataHeaders={data.headers}
            sampleRows={data.data}
            columnValues={(data as { columnValues?: Record<string, string[]> }).columnValues}
            mappings={mappings}
            suggested={suggested}
            reasons={reasons}
            onLeaveEmpty={(t) => dispatch({ type: 'leaveEmpty', templateColumn: t })}
            onMap={(d, t) => dispatch({ type: 'map', dataColumn: d, templateColumn: t })}
            onUnmap={(t) => dispatch({ type: 'unmap', templateColumn: t })}
            onTransform={(t, tr) => dispatch({ type: 'setTransform', templateColumn: t, transform: tr })}
            onAcceptSuggestions={() => dispatch({ type: 'acceptSuggestions' })}
            onClearSuggestions={() => dispatch({ type: 'clearSuggestions' })}
          />
          {builtIn ? null : (
            <RulesEditor
              templateHeaders={template.headers}
              rules={templateRules}
              onChange={(c, r) => dispatch({ type: 'setRules', templateColumn: c, rules: r })}
            />
          )}
          <MappingPreview preview={preview} loading={previewLoading} error={previewError} />
          <HStack
            justify="space-between"
            gap="3"
            flexWrap="wrap"
            position="sticky"
            bottom="0"
            bg="bg.subtle"
            py="3"
          >
            <Button variant="outline" onClick={() => dispatch({ type: 'goTo', step: 2 })}>
              Back
            </Button>
            <HStack gap="3" flexWrap="wrap">
              {signedIn && mappings.length > 0 ? (
                atSaveLimit ? (
                  <Button asChild variant="outline" colorPalette="orange">
                    <RouterLink to="/profile">Upgrade to Save More</RouterLink>
                  </Button>
                ) : (
                  <Button variant="outline" onClick={() => setSaveOpen(true)}>
                    Save Mapping
                  </Button>
                )
              ) : null}
              <Button colorPalette="blue" disabled={!allMapped} onClick={() => void generate()}>
                Generate CSV
              </Button>
            </HStack>
          </HStack>
        </Stack>
      ) : null}

      {step === 4 ? (
        batchId ? (
          <BatchProgress
            batchId={batchId}
            onReset={() => {
              setBatchId(null);
              bulk.clear(false);
              setPreview(null);
              sources.clear();
              dispatch({ type: 'reset' });
              if (loadMappingId) setParams({}, { replace: true });
            }}
          />
        ) : result ? (
          <ResultScreen
            result={result}
            choice={outputChoice}
            onChoiceChange={setOutputChoice}
            onRegenerate={(c) => void generate(c)}
            templateIsBuiltIn={template?.id.startsWith(VIRTUAL_TEMPLATE_PREFIX) ?? false}
            review={
              result.warningCount > 0 && template && (reviewJobId || result.csvData) ? (
                <ReviewPanel
                  columns={template.headers}
                  rules={reviewRules}
                  filename={result.filename}
                  csvData={result.csvData}
                  warnings={result.warnings}
                  jobId={reviewJobId ?? undefined}
                />
              ) : null
            }
            onReset={() => {
              setPreview(null);
              sources.clear();
              dispatch({ type: 'reset' });
              if (loadMappingId) setParams({}, { replace: true });
            }}
          />
        ) : queued ? (
          <BackgroundJobProgress queued={queued} onDone={finish} onFailed={jobFailed} />
        ) : (
          <ProcessingProgress percent={progress.percent} text={progress.text} />
        )
      ) : null}

      <FileTooLargeDialog
        info={tooLarge}
        plan={plan}
        onTryAnother={() => setTooLarge(null)}
        onClose={() => setTooLarge(null)}
      />
      <RowLimitDialog
        info={
          pendingRows && pendingRows.actualRows !== undefined && pendingRows.maxRows !== undefined
            ? {
                fileName: pendingRows.filename,
                actualRows: pendingRows.actualRows,
                maxRows: pendingRows.maxRows,
              }
            : null
        }
        onProceed={() => {
          if (pendingRows) accept(pendingRows);
          setPendingRows(null);
        }}
        onCancel={() => {
          if (pendingRows) void deleteUpload(pendingRows.id);
          setPendingRows(null);
        }}
      />
      <LimitReachedDialog
        open={limitOpen}
        limitType={result?.limitType ?? null}
        rowsProcessed={result?.rowsProcessed ?? 0}
        totalRows={result?.totalRowsInFile ?? 0}
        plan={plan}
        onClose={() => setLimitOpen(false)}
      />
      <SaveMappingDialog open={saveOpen} onClose={() => setSaveOpen(false)} onSave={save} />
    </Box>
  );
}

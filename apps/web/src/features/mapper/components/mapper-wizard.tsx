import { Box, Stack } from '@chakra-ui/react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { TemplateView } from '@csv-mapper/contracts';
import { formatPlanFileSize, type PlanLimits } from '@csv-mapper/domain';
import { deleteUpload } from '../../../lib/uploads';
import { useApiError } from '../hooks/use-api-error';
import { useGenerate } from '../hooks/use-generate';
import {
  builtInOf,
  VIRTUAL_TEMPLATE_PREFIX,
  useMapperState,
  type MapperFile,
  type Step,
} from '../hooks/use-mapper-state';
import { usePreview } from '../hooks/use-preview';
import { useRecognisedSources } from '../hooks/use-recognised-sources';
import { useLoadMapping, useSaveCurrentMapping } from '../hooks/use-saved-mappings';
import { useServerSuggestions } from '../hooks/use-server-suggestions';
import { useUnauthorizedRedirect } from '../hooks/use-unauthorized-redirect';
import { useUploads } from '../hooks/use-uploads';
import type { WizardBulk, WizardReview } from '../types';
import { DEFAULT_OUTPUT_CHOICE, type OutputChoice } from '../utils/output-options';
import { processBody, reviewRulesOf } from '../utils/wizard-request';
import { FileTooLargeDialog, LimitReachedDialog, RowLimitDialog, SaveMappingDialog } from './mapper-dialogs';
import { MappingStep } from './mapping-step';
import { BackgroundJobProgress, ProcessingProgress } from './processing-step';
import { ReadingPanel } from './reading-panel';
import { ResultScreen } from './result/result-screen';
import { TemplatePicker } from './template-picker';
import { UploadZone } from './upload-zone';
import { WizardProgress } from './wizard-progress';

export interface MapperWizardProps {
  plan: string;
  planLimits: PlanLimits | null;
  savedMappingsCount: number;
  signedIn: boolean;
  /** Bulk uploads: the batches feature, composed by the page. */
  bulk: WizardBulk;
  /** Step 4's review grid for a run with problems: the review feature, composed by the page. */
  renderReview: (review: WizardReview) => ReactNode;
}

/** The four-step mapper of spec §2/§4. */
export function MapperWizard({
  plan,
  planLimits,
  savedMappingsCount,
  signedIn,
  bulk,
  renderReview,
}: MapperWizardProps) {
  const [state, dispatch] = useMapperState();
  const { step, template, data, mappings, result, templateRules } = state;
  // One rules object while the template and its rules stay the same: the review panel starts over (its
  // edits gone) when it is handed another.
  const reviewRules = useMemo(() => reviewRulesOf({ template, templateRules }), [template, templateRules]);
  const [saveOpen, setSaveOpen] = useState(false);
  const [outputChoice, setOutputChoice] = useState<OutputChoice>(DEFAULT_OUTPUT_CHOICE);
  const [params, setParams] = useSearchParams();
  const relogin = useUnauthorizedRedirect();
  const reportError = useApiError();
  const builtIn = builtInOf(template);
  const { reasons } = useServerSuggestions(template, data, dispatch, relogin);
  const sources = useRecognisedSources({
    signedIn,
    templateHeaders: template?.headers ?? null,
    dispatch,
    reportError,
  });
  const maxSizeText = planLimits ? formatPlanFileSize(planLimits.maxFileSize) : '1MB';

  const loadMappingId = params.get('loadMapping');
  useLoadMapping(loadMappingId, { dispatch, using: sources.using, reportError });
  const save = useSaveCurrentMapping(state, { using: sources.using, reportError });

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
  const uploads = useUploads({ planLimits, maxSizeText, onAccept: accept, relogin });

  /** The same upload read another way (reading panel): new headers, so suggestions and match again. */
  const reread = (file: MapperFile) => {
    dispatch({ type: 'fileReread', file });
    sources.offer(file);
  };
  const readingPanel = (file: MapperFile | null) =>
    file ? <ReadingPanel kind={file.type} file={file} onReread={reread} onUnauthorized={relogin} /> : null;

  /** Several data files at once: the first drives the mapping, the others join the bulk upload. */
  const onDataFiles = async (files: File[]) => {
    await uploads.upload(files[0], 'data');
    await bulk.addExtras(files.slice(1));
  };
  const removeTemplate = () => {
    if (template && !template.id.startsWith(VIRTUAL_TEMPLATE_PREFIX)) void deleteUpload(template.id);
    if (data) void deleteUpload(data.id);
    bulk.clear(true);
    sources.clear();
    dispatch({ type: 'removeTemplate' });
    if (loadMappingId) setParams({}, { replace: true });
  };
  const removeData = () => {
    if (data) void deleteUpload(data.id);
    bulk.clear(true);
    sources.clear();
    dispatch({ type: 'removeData' });
  };
  const reset = () => {
    sources.clear();
    dispatch({ type: 'reset' });
    if (loadMappingId) setParams({}, { replace: true });
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
  const request = useMemo(
    () => processBody({ template, data, mappings, templateRules }, savedId),
    [template, data, mappings, templateRules, savedId],
  );
  const preview = usePreview(step === 3 ? request : null, relogin);
  const run = useGenerate({ request, templateHeaders: template?.headers ?? [], dispatch, bulk, reportError });
  const generate = (choice: OutputChoice = outputChoice) => void run.generate(choice);

  const canGoTo = (s: Step) =>
    s <= step || (s === 2 && template !== null) || (s === 3 && template !== null && data !== null);
  const atSaveLimit =
    planLimits !== null &&
    planLimits.maxSavedMappings !== -1 &&
    savedMappingsCount >= planLimits.maxSavedMappings;
  const batch = step === 4 ? bulk.progress(reset) : null;
  return (
    <Box>
      <WizardProgress step={step} canGoTo={canGoTo} onGoTo={(s) => dispatch({ type: 'goTo', step: s })} />

      {step === 1 ? (
        <>
          <UploadZone
            kind="template"
            file={template}
            uploading={uploads.uploading === 'template'}
            progress={uploads.uploading === 'template' ? uploads.progress : null}
            onCancel={uploads.cancel}
            maxSizeText={maxSizeText}
            onFile={(f) => void uploads.upload(f, 'template')}
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
            uploading={uploads.uploading === 'data' || bulk.uploading}
            progress={uploads.uploading === 'data' ? uploads.progress : null}
            onCancel={uploads.cancel}
            maxSizeText={maxSizeText}
            onFile={(f) => void uploads.upload(f, 'data')}
            onRemove={removeData}
            multiple={bulk.allowed}
            onFiles={(fs) => void onDataFiles(fs)}
          >
            {readingPanel(data)}
          </UploadZone>
        </Stack>
      ) : null}

      {step === 3 && template && data ? (
        <MappingStep
          state={state}
          template={template}
          data={data}
          dispatch={dispatch}
          reasons={reasons}
          matches={loadMappingId ? [] : sources.matches}
          onUseMatch={(m) => void sources.apply(m)}
          inUse={sources.inUse}
          builtIn={Boolean(builtIn)}
          bulkPanel={bulk.allowed ? bulk.panel(data) : null}
          preview={preview}
          save={signedIn && mappings.length > 0 ? (atSaveLimit ? 'upgrade' : 'save') : null}
          onSave={() => setSaveOpen(true)}
          onGenerate={() => generate()}
        />
      ) : null}

      {step === 4 ? (
        batch ? (
          batch
        ) : result ? (
          <ResultScreen
            result={result}
            choice={outputChoice}
            onChoiceChange={setOutputChoice}
            onRegenerate={generate}
            templateIsBuiltIn={template?.id.startsWith(VIRTUAL_TEMPLATE_PREFIX) ?? false}
            review={
              result.warningCount > 0 && template && (run.reviewJobId || result.csvData)
                ? renderReview({
                    columns: template.headers,
                    rules: reviewRules,
                    filename: result.filename,
                    csvData: result.csvData,
                    warnings: result.warnings,
                    jobId: run.reviewJobId ?? undefined,
                  })
                : null
            }
            onReset={reset}
          />
        ) : run.queued ? (
          <BackgroundJobProgress queued={run.queued} onDone={run.finish} onFailed={run.jobFailed} />
        ) : (
          <ProcessingProgress percent={run.progress.percent} text={run.progress.text} />
        )
      ) : null}

      <FileTooLargeDialog
        info={uploads.tooLarge}
        plan={plan}
        onTryAnother={uploads.closeTooLarge}
        onClose={uploads.closeTooLarge}
      />
      <RowLimitDialog
        info={uploads.pendingRows}
        onProceed={() => uploads.settlePending(true)}
        onCancel={() => uploads.settlePending(false)}
      />
      <LimitReachedDialog
        open={run.limitOpen}
        limitType={result?.limitType ?? null}
        rowsProcessed={result?.rowsProcessed ?? 0}
        totalRows={result?.totalRowsInFile ?? 0}
        plan={plan}
        onClose={run.closeLimit}
      />
      <SaveMappingDialog open={saveOpen} onClose={() => setSaveOpen(false)} onSave={save} />
    </Box>
  );
}

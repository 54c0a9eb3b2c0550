import { SubpageHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';
import { useProfile } from '../../features/account/api/get-profile';
import { useAuth } from '../../features/auth/hooks/use-auth';
import { MAX_BATCH_FILES } from '../../features/batches/api/batches';
import { BatchProgress } from '../../features/batches/components/batch-progress';
import { BulkFilesPanel } from '../../features/batches/components/bulk-files-panel';
import { useBulkUpload } from '../../features/batches/hooks/use-bulk-upload';
import { usePaymentReturn } from '../../features/billing/hooks/use-payment-return';
import { MapperWizard } from '../../features/mapper/components/mapper-wizard';
import type { WizardBulk } from '../../features/mapper/types';
import { ReviewPanel } from '../../features/review/components/review-panel';

/**
 * /csv-mapper: the four-step mapping wizard (spec §2/§4). The page composes the features: the mapper's
 * wizard (upload, mapping, result), the batches feature's bulk uploads and the review feature's grid.
 */
export function CsvMapperPage() {
  const { user } = useAuth();
  const { data: profile } = useProfile({ enabled: Boolean(user) });
  usePaymentReturn();
  const planLimits = profile?.planLimits ?? null;
  const bulk = useBulkUpload();
  const wizardBulk: WizardBulk = {
    // Plans with background processing take more data files for the same mapping, run as one batch.
    allowed: Boolean(user) && planLimits?.asyncProcessing === true,
    fileIds: bulk.files.map((f) => f.id),
    uploading: bulk.uploading,
    addExtras: (files) => bulk.add(files, MAX_BATCH_FILES - 1),
    clear: bulk.clear,
    start: bulk.start,
    panel: (primary) => (
      <BulkFilesPanel
        primary={primary}
        extras={bulk.files}
        uploading={bulk.uploading}
        onAdd={(fs) => void bulk.add(fs, MAX_BATCH_FILES - 1 - bulk.files.length)}
        onRemove={bulk.remove}
      />
    ),
    progress: (onReset) =>
      bulk.batchId ? (
        <BatchProgress
          batchId={bulk.batchId}
          onReset={() => {
            bulk.finish();
            onReset();
          }}
        />
      ) : null,
  };
  return (
    <AppPage header={<SubpageHeader />}>
      <PageMeta
        title="Map Your CSV Data"
        description="Upload a template and a data file, map the columns and download the result."
        path="/csv-mapper"
        robots="noindex, nofollow"
      />
      <MapperWizard
        plan={profile?.plan ?? 'free'}
        planLimits={planLimits}
        savedMappingsCount={profile?.usage.savedMappings ?? 0}
        signedIn={Boolean(user)}
        bulk={wizardBulk}
        renderReview={(review) => <ReviewPanel {...review} />}
      />
    </AppPage>
  );
}

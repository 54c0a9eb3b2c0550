import { useRef, useState } from 'react';
import type { UploadType } from '@csv-mapper/contracts';
import type { PlanLimits } from '@csv-mapper/domain';
import { showToast } from '../../../components/toaster';
import { plural } from '../../../lib/plural';
import { deleteUpload, uploadFile } from '../../../lib/uploads';
import { directUpload, UploadCancelledError, type UploadProgress } from '../api/direct-upload';
import type { FileTooLargeInfo } from '../components/mapper-dialogs';
import { megabytes } from '../utils/download';
import { uploadFailure } from '../utils/upload-error';
import type { MapperFile } from './use-mapper-state';

/**
 * The wizard's two uploads (template, data): straight to object storage with a progress bar on plans with
 * direct uploads, else multipart; a file over the plan's size opens the File Too Large dialog, one over its
 * rows waits for the Row Limit dialog (`pendingRows`) before `onAccept` takes it.
 */
export function useUploads({
  planLimits,
  maxSizeText,
  onAccept,
  relogin,
}: {
  planLimits: PlanLimits | null;
  maxSizeText: string;
  onAccept: (file: MapperFile) => void;
  relogin: () => void;
}) {
  const [uploading, setUploading] = useState<UploadType | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  const [tooLarge, setTooLarge] = useState<FileTooLargeInfo | null>(null);
  const [pendingRows, setPendingRows] = useState<MapperFile | null>(null);

  const upload = async (file: File, type: UploadType) => {
    setUploading(type);
    try {
      // Enterprise: straight to object storage with a progress bar (null = the server keeps files in memory).
      let uploaded = null;
      if (planLimits?.s3Uploads) {
        const controller = new AbortController();
        abort.current = controller;
        uploaded = await directUpload(file, type, setProgress, controller.signal);
      }
      uploaded ??= await uploadFile(file, type);
      showToast({
        title: 'File uploaded successfully',
        description: `${uploaded.filename}: ${plural(uploaded.headers.length, 'column')}`,
        type: 'success',
      });
      if (uploaded.exceedsRowLimit && uploaded.actualRows !== undefined && uploaded.maxRows !== undefined) {
        setPendingRows(uploaded);
      } else onAccept(uploaded);
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
      setProgress(null);
      abort.current = null;
    }
  };

  /** The Row Limit dialog's choice: go on with the first rows, or drop the upload. */
  const settlePending = (proceed: boolean) => {
    if (pendingRows) {
      if (proceed) onAccept(pendingRows);
      else void deleteUpload(pendingRows.id);
    }
    setPendingRows(null);
  };

  return {
    /** Which kind is uploading now, and its bytes sent (direct uploads only). */
    uploading,
    progress,
    upload,
    cancel: () => abort.current?.abort(),
    tooLarge,
    closeTooLarge: () => setTooLarge(null),
    /** The Row Limit dialog's numbers while an upload over the plan's rows waits for a choice. */
    pendingRows:
      pendingRows && pendingRows.actualRows !== undefined && pendingRows.maxRows !== undefined
        ? { fileName: pendingRows.filename, actualRows: pendingRows.actualRows, maxRows: pendingRows.maxRows }
        : null,
    settlePending,
  };
}

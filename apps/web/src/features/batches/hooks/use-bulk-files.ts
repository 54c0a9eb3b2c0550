import { useCallback, useState } from 'react';
import type { UploadRecord } from '@csv-mapper/contracts';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { deleteUpload, uploadFile } from '../../../lib/uploads';
import { MAX_BATCH_FILES } from '../api/batches';

/** A data file added beside the mapper's first one; the same mapping runs on all of them. */
export type BulkFile = Pick<UploadRecord, 'id' | 'filename' | 'headers' | 'rowCount'>;

/**
 * The extra data files of a bulk upload (plans with background processing). The first data file stays the
 * mapper's: its columns and sample rows drive the mapping; these run with the same mapping as one batch.
 */
export function useBulkFiles() {
  const [files, setFiles] = useState<BulkFile[]>([]);
  const [uploading, setUploading] = useState(0);

  /** Uploads files one after another (a failure is named and the others go on); `room` caps the count. */
  const add = useCallback(async (picked: File[], room: number) => {
    const take = picked.slice(0, Math.max(0, room));
    if (picked.length > take.length) {
      showToast({
        title: 'Too many files',
        description: `A bulk upload takes up to ${MAX_BATCH_FILES} data files; ${picked.length - take.length} were left out.`,
        type: 'error',
      });
    }
    for (const file of take) {
      setUploading((n) => n + 1);
      try {
        const up = await uploadFile(file, 'data');
        setFiles((list) => [...list, up]);
      } catch (err) {
        showToast({
          title: `${file.name} was not uploaded`,
          description: errorDescription(err, 'The file could not be uploaded.'),
          type: 'error',
        });
      } finally {
        setUploading((n) => n - 1);
      }
    }
  }, []);

  const remove = useCallback((id: string) => {
    void deleteUpload(id);
    setFiles((list) => list.filter((f) => f.id !== id));
  }, []);

  /** Forgets every extra file; `deleteUploads` also deletes them (they expire anyway). */
  const clear = useCallback((deleteUploads: boolean) => {
    setFiles((list) => {
      if (deleteUploads) for (const f of list) void deleteUpload(f.id);
      return [];
    });
  }, []);

  return { files, uploading: uploading > 0, add, remove, clear };
}

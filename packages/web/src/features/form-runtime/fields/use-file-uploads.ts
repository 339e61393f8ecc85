/** The upload side shared by the attachment and photo fields: checks, upload one by one, the list's value. */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileRef } from '@tritium/shared/controls/values';
import { UPLOAD_SCENES } from '@tritium/shared/contracts/files/index';
import { isApiError } from '../../../lib/api-error.ts';
import { MB, uploadCapBytes, uploadFile, type UploadScene } from '../api/upload.ts';

export interface FileUploadsOptions {
  value: FileRef[] | null;
  onChange: (value: FileRef[] | null) => void;
  scene: UploadScene;
  /** The control's maxUploadSize option, in MB. */
  /** The control's MaxUploadSize (MB), when it has one. */
  maxUploadSizeMb?: unknown;
  /** Refuses a file before anything else (a message), e.g. not an image. */
  refuse?: (file: File) => string | undefined;
  /** Turns the picked file into the one to send (photos: compressed), given the cap in bytes. */
  prepare?: (file: File, capBytes: number) => Promise<File>;
}

export function useFileUploads({ value, onChange, scene, maxUploadSizeMb, refuse, prepare }: FileUploadsOptions) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);
  // Several files finish one after another: each adds to the list as it is now, not as it was rendered.
  const latest = useRef(value);
  latest.current = value;
  const capBytes = uploadCapBytes(UPLOAD_SCENES[scene].maxSizeMb, maxUploadSizeMb);

  const commit = (next: FileRef[]) => {
    latest.current = next.length ? next : null;
    onChange(latest.current);
  };

  const handleFiles = async (files: File[]) => {
    const problems: string[] = [];
    setErrors([]);
    setUploading((count) => count + files.length);
    for (const picked of files) {
      try {
        const refused = refuse?.(picked);
        if (refused) {
          problems.push(refused);
          continue;
        }
        // The scene's count (sns 8, hand sign 1, ...): files past it are refused before they are sent.
        const maxCount = UPLOAD_SCENES[scene].maxCount;
        if (maxCount !== null && (latest.current?.length ?? 0) >= maxCount) {
          problems.push(t('formRuntimeFields.files.tooMany', { name: picked.name, max: maxCount }));
          continue;
        }
        const file = prepare ? await prepare(picked, capBytes) : picked;
        // domain.md §9: the scene's cap and the control's MaxUploadSize, checked before a byte is sent.
        if (file.size > capBytes) {
          problems.push(t('formRuntimeFields.files.tooLarge', { name: picked.name, max: Math.round((capBytes / MB) * 100) / 100 }));
          continue;
        }
        const ref = await uploadFile(file, scene);
        commit([...(latest.current ?? []), ref]);
      } catch (error) {
        const message = isApiError(error) ? error.errorMessage : error instanceof Error ? error.message : String(error);
        problems.push(t('formRuntimeFields.files.uploadFailed', { name: picked.name, message }));
      } finally {
        setUploading((count) => count - 1);
      }
    }
    setErrors(problems);
  };

  const remove = (fileId: string) => commit((latest.current ?? []).filter((file) => file.id !== fileId));

  return { handleFiles, remove, uploading: uploading > 0, errors, capBytes };
}

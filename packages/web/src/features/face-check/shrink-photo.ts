import { contracts } from '@tritium/shared';

// A phone's camera makes photos of several MB; the provider takes at most FACE_PHOTO_MAX_MB. A photo above that is
// redrawn as a JPEG no longer than 1600 px on its long side; a smaller one goes as it is (its bytes untouched).

const LONG_SIDE = 1600;

export async function shrinkPhoto(file: File): Promise<File> {
  if (file.size <= contracts.FACE_PHOTO_MAX_MB * 1024 * 1024 || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    return blob ? new File([blob], file.name.replace(/\.\w+$/, '') + '.jpg', { type: 'image/jpeg' }) : file;
  } catch {
    // Not a picture the browser reads: the server says so in the user's language.
    return file;
  }
}

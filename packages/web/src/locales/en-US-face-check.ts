import type { Catalogue } from './zh-CN.ts';
import type { zhCNFaceCheck } from './zh-CN-face-check.ts';

// en-US of zh-CN-face-check.ts.
export const enUSFaceCheck: Catalogue<typeof zhCNFaceCheck> = {
  title: 'Face check',
  takePhoto: 'Take a photo to check',
  uploadPhoto: 'Upload a photo to check',
  retry: 'Check again',
  checking: 'Checking…',
  passed: 'Passed · similarity {{score}}',
  failed: 'Not passed · similarity {{score}}',
  person: 'Person to check',
  choosePerson: 'Choose the person to check first',
  notInstalled: 'The face recognition plugin is not installed; ask an administrator to install it',
  noPhoto: 'You have no stored face photo yet; ask an administrator to upload one',
  display: '{{name}} · similarity {{score}}',
  photo: {
    title: 'Face photo',
    hint: 'Used by face checks in forms: a front-facing photo in good light (JPG, PNG or BMP, at most 3 MB)',
    none: 'None stored',
    stored: 'Stored ({{time}})',
    upload: 'Upload photo',
    replace: 'Replace photo',
    remove: 'Remove',
    removeConfirm: 'Without a photo this member cannot pass face checks. Remove it?',
    saved: 'Face photo saved',
    removed: 'Face photo removed',
  },
};

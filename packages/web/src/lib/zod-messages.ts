import { z } from 'zod';
import { describeIssue } from '@tritium/shared/validation/messages';
import { currentLocale } from './i18n.ts';

// Zod's default texts in the screen's language, from the same templates the server uses (docs/decisions/0028):
// a value schema's problem never shows zod's English on a Chinese screen. Imported by the screens that validate
// with the shared control schemas (not by the first page, which does not load zod).
z.config({ localeError: (issue) => describeIssue(issue as Parameters<typeof describeIssue>[0], currentLocale()) });

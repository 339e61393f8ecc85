import { fail, ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import type { CommentDto, TaskTipDto } from './sns-api.ts';

// A small in-memory server for a record's comments and task tips (docs/decisions/0009), as the signed-in 张三 (u1),
// who is not an administrator: only one's own comments and tips are removable.

const ME = { id: 'u1', name: '张三' };
let seq = 0;
const nextId = () => `0194${String(++seq).padStart(4, '0')}-0000-7000-8000-000000000000`;

export function comment(text: string, author = ME, extra: Partial<CommentDto> = {}): CommentDto {
  return {
    snsId: nextId(), schemaCode: 'Orders', objectId: 'rec-1', replyTo: null, replyToAuthorName: null, text, authorId: author.id, authorName: author.name,
    createdTime: '2026-11-23T08:00:00.000Z', files: [], canRemove: author.id === ME.id, ...extra,
  };
}

export function stubComments(initial: CommentDto[] = [], options: { disabled?: boolean } = {}) {
  let all = [...initial];
  const uploaded = new Map<string, CommentDto['files'][number]>();
  const body = <T>(call: RecordedCall) => call.body as T;
  const threads = () =>
    all.filter((c) => !c.replyTo).reverse().map((root) => ({ ...root, replies: all.filter((c) => c.replyTo && rootOf(c) === root.snsId) }));
  const rootOf = (c: CommentDto): string => {
    const parent = all.find((p) => p.snsId === c.replyTo);
    return parent ? (parent.replyTo ? rootOf(parent) : parent.snsId) : c.snsId;
  };
  const stub = stubFetch({
    'POST /v1/toolkit/sns/list': () => {
      if (options.disabled) return fail(270001, '该表单未开启评论');
      const list = threads();
      return ok({ list, total: list.length, hasMore: false, count: all.length });
    },
    'POST /v1/toolkit/sns/add': (call) => {
      const { text, fileIds = [] } = body<{ text: string; fileIds?: string[] }>(call);
      const created = comment(text, ME, { files: fileIds.map((id) => uploaded.get(id)!) });
      all = [...all, created];
      return ok(created);
    },
    'POST /v1/toolkit/sns/comment/add': (call) => {
      const { replyTo, text } = body<{ replyTo: string; text: string }>(call);
      const parent = all.find((c) => c.snsId === replyTo)!;
      const created = comment(text, ME, { replyTo, replyToAuthorName: parent.authorName });
      all = [...all, created];
      return ok(created);
    },
    // The files of the comment box: the sns scene's policy (8 files), uploads, links.
    'GET /v1/file/policy/upload': () =>
      ok({ scene: 'sns', maxSizeMb: 50, maxSizeBytes: 50 * 1024 * 1024, maxCount: 8, accept: ['*/*'], imageCompression: null, uploadUrl: '/v1/file/upload?scene=sns' }),
    'POST /v1/file/upload': (call) => {
      const name = new URL(call.url, 'http://x').searchParams.get('fileName')!;
      const file = { id: `f${uploaded.size + 1}`, name, size: (call.body as Blob).size, contentType: 'application/pdf' };
      uploaded.set(file.id, file);
      return ok({ fileId: file.id, name: file.name, size: file.size, contentType: file.contentType });
    },
    'POST /v1/file/urls/byfileids': (call) =>
      ok({ list: body<{ fileIds: string[] }>(call).fileIds.map((fileId) => ({ fileId, url: `/v1/file/download/${fileId}?s=1`, expiresAt: '2030-01-01T00:00:00Z' })) }),
    ...pickerCalls,
    'DELETE /v1/toolkit/sns/remove': (call) => {
      const snsId = new URL(call.url, 'http://x').searchParams.get('snsId');
      const before = all.length;
      const gone = new Set([snsId]);
      for (const c of all) if (c.replyTo && gone.has(c.replyTo)) gone.add(c.snsId);
      all = all.filter((c) => !gone.has(c.snsId));
      return ok({ removed: before - all.length });
    },
  });
  return { ...stub, comments: () => all };
}

export function taskTip(content: string, extra: Partial<TaskTipDto> = {}): TaskTipDto {
  return {
    id: nextId(), schemaCode: 'Orders', objectId: 'rec-1', content, remindTime: '2030-01-02T01:30:00.000Z', receivers: [{ id: 'u2', name: '李四' }], state: 'pending',
    createdBy: ME.id, createdByName: ME.name, createdTime: '2026-11-23T08:00:00.000Z', canChange: true, ...extra,
  };
}

/** A person as the org picker's search and list answer them. */
const person = (id: string, name: string) => ({
  id, parentId: 'd1', name, hasChild: false, state: 'active', isExternal: false, entryId: null, unitType: 'User', nodeType: 'user', mobile: null, authType: 3, parentName: '销售部',
});
/** The org picker's calls, finding 王五 (u3). */
const pickerCalls = {
  'POST /v1/org/search': () => ok({ list: [person('u3', '王五')], total: 1, hasMore: false }),
  'POST /v1/org/list': () => ok({ list: [person('u3', '王五')], total: 1, hasMore: false }),
};

export function stubTaskTips(initial: TaskTipDto[] = []) {
  let all = [...initial];
  const stub = stubFetch({
    'POST /v1/tasktip/list': () => ok({ list: all, total: all.length, hasMore: false }),
    'POST /v1/tasktip/add': (call) => {
      const b = call.body as { content: string; remindTime: string; receiverIds: string[] };
      const created = taskTip(b.content, { remindTime: b.remindTime, receivers: b.receiverIds.map((id) => ({ id, name: id === 'u3' ? '王五' : id })) });
      all = [...all, created];
      return ok(created);
    },
    'POST /v1/tasktip/cancel': (call) => {
      const { id } = call.body as { id: string };
      all = all.map((tip) => (tip.id === id ? { ...tip, state: 'cancelled' } : tip));
      return ok(all.find((tip) => tip.id === id));
    },
    'POST /v1/tasktip/remove': (call) => {
      const { id } = call.body as { id: string };
      all = all.filter((tip) => tip.id !== id);
      return ok({ removed: true });
    },
    ...pickerCalls,
  });
  return { ...stub, tips: () => all };
}

import type { FunctionNodeDto } from './api/apps-api.ts';

/**
 * Where a node lands, as the server will place it (PUT /sort, POST /move): among the siblings under parentCode,
 * right after preCode, or first when preCode is empty. Used to show a drop at once, before the server answers.
 */
export function placeNode<T extends Pick<FunctionNodeDto, 'code' | 'parentCode' | 'sortKey'>>(list: T[], code: string, parentCode: string | null, preCode: string): T[] {
  const moving = list.find((node) => node.code === code);
  if (!moving) return list;
  const siblings = list.filter((node) => node.parentCode === parentCode && node.code !== code).sort((a, b) => a.sortKey - b.sortKey);
  const at = preCode ? siblings.findIndex((node) => node.code === preCode) + 1 : 0;
  const ordered = [...siblings.slice(0, at), { ...moving, parentCode }, ...siblings.slice(at)];
  const sortKeyOf = new Map(ordered.map((node, index) => [node.code, index]));
  return list.map((node) => {
    if (node.code === code) return { ...node, parentCode, sortKey: sortKeyOf.get(code)! };
    const sortKey = sortKeyOf.get(node.code);
    return sortKey === undefined ? node : { ...node, sortKey };
  });
}

/** The code a node must follow to land where `over` is now, coming from `fromIndex` in the same sibling list. */
export function preCodeForDrop(siblingCodes: string[], activeCode: string, overCode: string): string {
  const from = siblingCodes.indexOf(activeCode);
  const to = siblingCodes.indexOf(overCode);
  const rest = siblingCodes.filter((code) => code !== activeCode);
  // Moving down: land after the node dropped on; moving up (or in from elsewhere): land before it.
  const insertAt = from !== -1 && from < to ? rest.indexOf(overCode) + 1 : rest.indexOf(overCode);
  return insertAt <= 0 ? '' : rest[insertAt - 1];
}

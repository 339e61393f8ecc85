import { ChatPlatformError, type PlatformDepartment, type PlatformDirectoryPart, type PlatformUser } from './chat-provider.ts';

// The part of a platform's directory that change events named (docs/decisions/0077, 0089), read one department and
// one person at a time: each adapter says how to read one and which of its platform's codes mean "no longer there".
// The root (the organisation itself) always leads, so that people in it keep it among their departments.

export interface PartReader {
  root: string;
  /** The department as it is now; null when the platform says it is gone in its answer (Feishu: is_deleted). */
  department(id: string): Promise<PlatformDepartment | null>;
  user(id: string): Promise<PlatformUser>;
  /** Platform codes that mean the department or person no longer exists (or is outside the app's range). */
  goneDepartmentCodes: ReadonlySet<number | string>;
  goneUserCodes: ReadonlySet<number | string>;
  /** People to read besides those named, known once the departments are read (Feishu: their leaders). */
  moreUsers?(): string[];
}

const isGone = (error: unknown, codes: ReadonlySet<number | string>) => error instanceof ChatPlatformError && codes.has(error.platformCode);

export async function readDirectoryPart(reader: PartReader, ids: { departments: string[]; users: string[] }): Promise<PlatformDirectoryPart> {
  const fetched: PlatformDepartment[] = [];
  const goneDepartments: string[] = [];
  for (const id of ids.departments) {
    if (id === reader.root) continue;
    try {
      const department = await reader.department(id);
      if (department) fetched.push(department);
      else goneDepartments.push(id);
    } catch (error) {
      if (!isGone(error, reader.goneDepartmentCodes)) throw error;
      goneDepartments.push(id);
    }
  }
  const users: PlatformUser[] = [];
  const goneUsers: string[] = [];
  for (const id of new Set([...ids.users, ...(reader.moreUsers?.() ?? [])])) {
    try {
      users.push(await reader.user(id));
    } catch (error) {
      if (!isGone(error, reader.goneUserCodes)) throw error;
      goneUsers.push(id);
    }
  }
  return { departments: [{ id: reader.root, parentId: null, name: '' }, ...parentsFirst(fetched)], users, goneUsers, goneDepartments };
}

/** Departments ordered so that a parent among them comes before its children. */
function parentsFirst(list: PlatformDepartment[]): PlatformDepartment[] {
  const byId = new Map(list.map((d) => [d.id, d]));
  const out: PlatformDepartment[] = [];
  const placed = new Set<string>();
  const place = (d: PlatformDepartment, depth: number) => {
    if (placed.has(d.id) || depth > list.length) return;
    const parent = d.parentId ? byId.get(d.parentId) : undefined;
    if (parent) place(parent, depth + 1);
    placed.add(d.id);
    out.push(d);
  };
  for (const d of list) place(d, 0);
  return out;
}

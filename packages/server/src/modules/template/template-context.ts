import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/types.ts';
import { actorOf } from '../../plugins/auth.ts';
import type { FileStore } from '../files/file-store.ts';
import { nodeContextOf, type NodeContext } from '../function-node/node-context.ts';

/** What the template services need besides the caller (docs/decisions/0131). */
export interface TemplateDeps {
  db: Db;
  store: FileStore;
  /** The folder of the built-in templates' manifests, packages and pictures. */
  builtInDir: string;
  /** Settles once the built-in templates are registered (lists and installs wait for it). */
  builtInsReady: () => Promise<void>;
}

/** The caller, in their engine, with their account (platform operators are accounts). */
export interface TemplateContext extends NodeContext {
  accountId: string | null;
}

export function templateContextOf(request: FastifyRequest, db: Db): TemplateContext {
  return { ...nodeContextOf(request, db), accountId: actorOf(request).accountId };
}

import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import { engineOf, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { getFormNodeOrThrow } from './form-access.ts';
import { findFormSchema } from './form-design.repo.ts';
import { definitionOf } from './form-design.service.ts';
import { presentSchema, schemaPropertiesOf, type PresentedProperty } from './schema.presenter.ts';

// Reading the published schema: GET /v1/schema, POST /v1/form/loadsetting, and another form's fields for association
// setup. Whoever may open the form reads it (docs/decisions/0006).

export interface PublishedForm {
  node: NodeRow;
  definition: contracts.FormDefinition;
  version: number;
  publishedTime: Date;
}

/** The published definition of a form the viewer may open; 240004 before the first publish. */
export async function getPublishedFormOrThrow(edb: EngineExecutor, ctx: NodeContext, schemaCode: string, need: 'open' | 'administer' = 'open'): Promise<PublishedForm> {
  const node = await getFormNodeOrThrow(edb, await viewerOf(edb, ctx), schemaCode, need);
  const row = await findFormSchema(edb, node.code);
  if (!row?.published || row.published_version === null || !row.published_time) throw new AppError('FormNotPublished', { detail: { schemaCode: node.code } });
  return { node, definition: definitionOf(row.published), version: row.published_version, publishedTime: new Date(row.published_time) };
}

export async function getSchema(ctx: NodeContext, schemaCode: string): Promise<contracts.FormSchemaDto> {
  const form = await getPublishedFormOrThrow(engineOf(ctx), ctx, schemaCode);
  return presentSchema(form.node, form.definition, form.version);
}

/** The schema with its cache stamp (the publish time in ms); only {notModified} when the client holds that stamp. */
export async function loadSetting(ctx: NodeContext, body: { schemaCode: string; timestamp?: number }): Promise<contracts.LoadSettingResult> {
  const form = await getPublishedFormOrThrow(engineOf(ctx), ctx, body.schemaCode);
  const timestamp = form.publishedTime.getTime();
  if (body.timestamp === timestamp) return { notModified: true, timestamp };
  return { notModified: false, timestamp, schema: presentSchema(form.node, form.definition, form.version), definition: form.definition };
}

const asField = (p: PresentedProperty) => ({ code: p.name, displayName: p.displayName, controlType: p.controlType, typeKey: p.typeKey, dataType: p.dataType, isSystem: p.isSystem });

/** The published fields of a form (for setting up an association to it): those with a value, lookups excluded. */
export async function associationFormFields(ctx: NodeContext, schemaCode: string) {
  const form = await getPublishedFormOrThrow(engineOf(ctx), ctx, schemaCode);
  const { properties, childSchemas } = schemaPropertiesOf(form.definition, form.node.node_type);
  const stored = (p: PresentedProperty) => p.dataType !== 'lookup';
  return {
    schemaCode: form.node.code,
    displayName: form.definition.attributes.displayName,
    fields: properties.filter(stored).map(asField),
    childSchemas: childSchemas.map((c) => ({ code: c.schemaCode, displayName: c.displayName, fields: c.properties.filter(stored).map(asField) })),
  };
}

import type { EngineRow } from './engine.repo.ts';

/** Engine info as the client sees it (domain.md §3 "Engine info"). */
export function presentEngine(engine: EngineRow, isExternal: boolean) {
  return {
    engineCode: engine.engine_code,
    engineName: engine.engine_name,
    engineType: engine.engine_type,
    entryType: engine.entry_type,
    state: engine.state,
    companyId: engine.company_id,
    logoUrl: engine.logo_url,
    createdTime: new Date(engine.created_time).toISOString(),
    isPrimary: !isExternal,
  };
}

import { useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import { RuntimeFormContext } from '../../components/form-context.ts';
import { controlPath } from '../../model/dependent-fields.ts';
import { linksApi } from '../../model/links-api.ts';
import type { RuntimeControl } from '../field-types.ts';

// The records an association offers (POST /v1/form/association/list, docs/decisions/0016): Effective records of the
// other form within the control's data range, which may read this form's values ({this.Code}); typing searches titles.
const OFFERED = 50;

/** The main-table values the data range reads, without the sub-tables (their rows do not narrow a main association). */
function rangeValues(values: Record<string, unknown> | undefined, control: RuntimeControl): Record<string, unknown> {
  const filter = typeof control.options.associationFilter === 'string' ? control.options.associationFilter : '';
  if (!values || !/\{\s*this\./i.test(filter)) return {};
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

export function useAssociationOffers(control: RuntimeControl, schemaCode: string, open: boolean, keyword: string) {
  const state = useContext(RuntimeFormContext);
  const values = rangeValues(state?.form.values, control);
  const controlCode = controlPath(control);
  return useQuery({
    queryKey: ['form-runtime', 'association', schemaCode, controlCode, keyword, values],
    queryFn: () => linksApi.associationList({ schemaCode, controlCode, values, pageSize: OFFERED, ...(keyword ? { keyword } : {}) }),
    enabled: open && typeof control.options.schemaCode === 'string' && control.options.schemaCode !== '',
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
}

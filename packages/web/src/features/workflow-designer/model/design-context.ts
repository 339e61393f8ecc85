import { createContext, useContext } from 'react';

/** A field of the published form the designer may refer to (conditions, field sources, field permissions). */
export interface FieldInfo {
  code: string;
  name: string;
  /** The control type's registry key (number, user, department, …). */
  typeKey: string;
}

export const PEOPLE_FIELD_TYPES = ['user', 'multiUser', 'department', 'multiDepartment'];
export const NUMBER_FIELD_TYPES = ['number'];

export interface DesignContextValue {
  schemaCode: string;
  fields: FieldInfo[];
  /** Names of the users and departments the design names (ids are all the template keeps). */
  names: Record<string, string>;
  remember: (units: { id: string; name: string }[]) => void;
}

export const DesignContext = createContext<DesignContextValue>({ schemaCode: '', fields: [], names: {}, remember: () => {} });
export const useDesignContext = () => useContext(DesignContext);

import { createContext, useContext } from 'react';

/** The uids of controls whose settings the save call would refuse; the canvas marks them. */
export const ControlProblemsContext = createContext<ReadonlySet<string>>(new Set());

export const useControlProblems = () => useContext(ControlProblemsContext);

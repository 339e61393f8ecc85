import { createContext, useContext } from 'react';

/** What the controls of an open form reach of its custom code (the button control). */
export interface FormScriptState {
  /** Runs a button's action: the browser script's `buttons[actionName]`, else the form's server action. */
  pressButton: (actionName: string) => Promise<void>;
  /** The form's script is still being fetched: a button waits. */
  loading: boolean;
}

export const FormScriptContext = createContext<FormScriptState | null>(null);

/** The open form's custom code; null outside a form (the designer's canvas draws buttons without one). */
export const useFormScript = () => useContext(FormScriptContext);

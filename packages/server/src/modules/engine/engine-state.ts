// Moved to request-context (the request plugin checks an engine's state below this module); kept for callers.
export { assertEngineUsable, engineStateError } from '../request-context/engine-state.ts';

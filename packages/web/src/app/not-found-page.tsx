// Moved to components/not-found-page.tsx (the entry routes show it too); kept for callers.
export { NotFoundPage } from '../components/not-found-page.tsx';

// Customer creation progress, live from the server-sent events (views/components/CreationStatus.tsx CreationStatusLive).
export { CreationStatusLive as default } from '../../views/components/CreationStatus.tsx';

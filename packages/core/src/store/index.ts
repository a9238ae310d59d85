export { migrate } from './migrate';
export { PgStore } from './pg-store';
export { type Store } from './store';

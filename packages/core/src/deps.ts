import type { ServiceSettings } from './config';
import type { Store } from './store/store';
import type { Clock } from './util/clock';

/** What domain functions need from their host process; the functions' Container satisfies it. */
export interface CoreDeps {
  store: Store;
  settings: ServiceSettings;
  clock: Clock;
}

export { type Clock, systemClock } from './clock';
export { freePort } from './free-port';
export { memoPer } from './memo-per';

export { run } from './main';
export type { RunContext } from './run-context';

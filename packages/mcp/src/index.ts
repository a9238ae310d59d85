export { loadStdioConfig, type StdioConfig } from './config';
export { httpCaller } from './http-caller';

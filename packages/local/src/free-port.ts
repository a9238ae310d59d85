export { freePort } from '@dbops/core/util';

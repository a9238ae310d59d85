export { freePort } from '@dbops/core/util/free-port';

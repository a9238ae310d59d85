import { notImplemented } from '../http/define-handler';

/** Not built yet: answers 501 with the envelope until its issue lands. */
export const handler = notImplemented('billing-checkout');

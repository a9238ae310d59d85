/** Managed databases per user (spec section 8); the fourth request gets PROVISION_LIMIT_REACHED (409). */
export const PROVISION_LIMIT = 3;

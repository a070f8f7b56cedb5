/**
 * Name rules shared by the user and group forms; the server (internal/org/names.go, D29) applies the
 * same ones, so the form refuses what the server would.
 */

/** An account: ASCII letters, digits and _ . - @, 3–32 characters. */
export const ACCOUNT_RE = /^[A-Za-z0-9_.@-]{3,32}$/;

/** Longest nickname, as on the server. */
export const MAX_NICKNAME = 32;

/**
 * Characters a displayed name may not hold: control characters (line breaks included), the line and
 * paragraph separators, and text direction controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C)
 * that would make a name display as something else.
 */
// eslint-disable-next-line no-control-regex
export const HIDDEN_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** Whether a name is free of hidden characters. */
export const plainName = (v: string | undefined | null) => !v || !HIDDEN_RE.test(v);

/** Whether an account name follows the rule; `unchanged` (an existing account's own name) is kept as is. */
export const validAccount = (v: string | undefined | null, unchanged?: string) => {
  const s = (v ?? '').trim();
  return (unchanged != null && s === unchanged) || ACCOUNT_RE.test(s);
};

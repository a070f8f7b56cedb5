/** Illustration of the "being built" state. */
export function BuildIcon() {
  return (
    <svg viewBox="0 0 96 96" width="88" height="88" aria-hidden>
      <circle cx="48" cy="48" r="44" fill="#e6f0ff" />
      <rect x="22" y="40" width="40" height="20" rx="10" fill="#9fc3f5" />
      <path d="M62 44h8l6 7v9H62z" fill="#1668dc" />
      <circle cx="32" cy="63" r="5" fill="#0d1b2e" />
      <circle cx="68" cy="63" r="5" fill="#0d1b2e" />
      <path d="M20 72h56" stroke="#9fc3f5" strokeWidth="3" strokeDasharray="6 5" strokeLinecap="round" />
    </svg>
  );
}

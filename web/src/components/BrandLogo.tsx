import { useState } from 'react';

/** The theme/group logo from the server, or a built-in tanker mark if it cannot be loaded. */
export function BrandLogo({ src, size = 32, alt }: { src?: string | null; size?: number; alt: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return <img src={src} alt={alt} width={size} height={size} style={{ objectFit: 'contain' }} onError={() => setFailed(src)} />;
  }
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} role="img" aria-label={alt}>
      <rect width="64" height="64" rx="14" fill="#1668dc" />
      <rect x="7" y="21" width="35" height="19" rx="9.5" fill="#e6f4ff" />
      <path d="M42 25h8l6 8v7H42z" fill="#9fd2ff" />
      <circle cx="17" cy="44" r="5" fill="#0d1b2e" stroke="#e6f4ff" strokeWidth="2" />
      <circle cx="48" cy="44" r="5" fill="#0d1b2e" stroke="#e6f4ff" strokeWidth="2" />
    </svg>
  );
}

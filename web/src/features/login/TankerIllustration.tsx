/** Decorative tanker scene for the login page (pure SVG, no external images). */
export function TankerIllustration() {
  return (
    <svg viewBox="0 0 560 320" className="tw-login-art" aria-hidden>
      <defs>
        <linearGradient id="tw-tank" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#f4f8ff" />
          <stop offset="0.55" stopColor="#c9dcf5" />
          <stop offset="1" stopColor="#8fb1dc" />
        </linearGradient>
        <linearGradient id="tw-cab" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#4fb3ff" />
          <stop offset="1" stopColor="#1668dc" />
        </linearGradient>
        <linearGradient id="tw-road" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#ffffff" stopOpacity="0" />
          <stop offset="0.5" stopColor="#ffffff" stopOpacity="0.35" />
          <stop offset="1" stopColor="#ffffff" stopOpacity="0" />
        </linearGradient>
      </defs>
      {/* map grid and route */}
      <g stroke="#ffffff" strokeOpacity="0.07">
        {Array.from({ length: 12 }, (_, i) => <line key={`v${i}`} x1={i * 50} y1="0" x2={i * 50} y2="250" />)}
        {Array.from({ length: 6 }, (_, i) => <line key={`h${i}`} x1="0" y1={i * 50} x2="560" y2={i * 50} />)}
      </g>
      <path d="M30 200 C120 120 200 190 280 120 S430 60 520 90" fill="none" stroke="#4fb3ff" strokeWidth="3" strokeDasharray="8 8" strokeOpacity="0.7" />
      <circle cx="30" cy="200" r="6" fill="#4fb3ff" />
      <g transform="translate(508 44)">
        <path d="M12 0C5.4 0 0 5.3 0 11.9 0 20.8 12 34 12 34s12-13.2 12-22.1C24 5.3 18.6 0 12 0z" fill="#ff7a45" />
        <circle cx="12" cy="12" r="4.5" fill="#fff" />
      </g>
      {/* signal */}
      <g fill="none" stroke="#9fd2ff" strokeLinecap="round" strokeOpacity="0.8">
        <path d="M396 150a22 22 0 0 1 22-22" strokeWidth="3" />
        <path d="M386 150a32 32 0 0 1 32-32" strokeWidth="3" strokeOpacity="0.55" />
        <path d="M376 150a42 42 0 0 1 42-42" strokeWidth="3" strokeOpacity="0.3" />
      </g>
      {/* road */}
      <rect x="0" y="282" width="560" height="4" fill="url(#tw-road)" />
      <g fill="#ffffff" fillOpacity="0.25">
        {Array.from({ length: 9 }, (_, i) => <rect key={i} x={i * 66 + 8} y="300" width="36" height="3" rx="1.5" />)}
      </g>
      {/* tanker */}
      <g transform="translate(92 170)">
        <rect x="0" y="72" width="300" height="12" rx="3" fill="#31465f" />
        <rect x="6" y="0" width="262" height="76" rx="38" fill="url(#tw-tank)" />
        <rect x="6" y="30" width="262" height="7" fill="#1668dc" fillOpacity="0.55" />
        {[56, 120, 184].map((x) => (
          <g key={x}>
            <rect x={x} y="-9" width="30" height="11" rx="3" fill="#9fb6d3" />
            <line x1={x + 38} y1="4" x2={x + 38} y2="70" stroke="#8aa6c8" strokeWidth="2" />
          </g>
        ))}
        <path d="M282 18h44c8 0 13 3 17 9l20 30c3 5 4 9 4 14v13H282z" fill="url(#tw-cab)" />
        <path d="M296 28h28c5 0 8 2 10 5l14 21h-52z" fill="#dff0ff" fillOpacity="0.9" />
        <rect x="354" y="70" width="14" height="6" rx="2" fill="#ffd666" />
        {[46, 96, 226, 326].map((x) => (
          <g key={x}>
            <circle cx={x} cy="90" r="19" fill="#1b2738" />
            <circle cx={x} cy="90" r="8" fill="#8aa6c8" />
          </g>
        ))}
      </g>
    </svg>
  );
}

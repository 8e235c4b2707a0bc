/** The journal's mark: an open book on the ink-blue seal. Decorative: the journal's name goes beside it. */
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="12" fill="#16294a" />
      <path d="M12 19c7-3 14-3 20 1v27c-6-4-13-4-20-1z" fill="#f6f1e7" />
      <path d="M52 19c-7-3-14-3-20 1v27c6-4 13-4 20-1z" fill="#e3d6bd" />
      <path d="M32 20v27" stroke="#16294a" strokeWidth="2" />
      <path d="M17 26h10M17 31h10M17 36h8M37 26h10M37 31h10M37 36h8" stroke="#8b2332" strokeWidth="1.8" />
    </svg>
  );
}

/** The product's mark: a mortarboard on a blue tile (same drawing as the favicon). */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0958d9" />
      <path d="M32 12 10 24l22 12 22-12z" fill="#fff" />
      <path d="M18 31v11c0 4 6.3 8 14 8s14-4 14-8V31l-14 7.6z" fill="#bfdbfe" />
      <path d="M52 25v14" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

// Small inline icons: a few hundred bytes each, no icon library in the bundle.

/** A line icon in the current colour, hidden from assistive technology. */
function LineIcon({
  size = 24,
  joinRound = false,
  children,
}: {
  size?: number;
  joinRound?: boolean;
  children: React.ReactNode;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin={joinRound ? "round" : undefined}
    >
      {children}
    </svg>
  );
}

export function SearchIcon() {
  return (
    <LineIcon size={20}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </LineIcon>
  );
}

export function MenuIcon() {
  return (
    <LineIcon>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </LineIcon>
  );
}

// The cards of embeds' icons (components/Embed.tsx), with round corners.
export function CalendarIcon() {
  return (
    <LineIcon joinRound>
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" />
    </LineIcon>
  );
}

export function PhotosIcon() {
  return (
    <LineIcon joinRound>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 17-5-5-9 8" />
    </LineIcon>
  );
}

export function PostsIcon() {
  return (
    <LineIcon joinRound>
      <rect x="3" y="3" width="8" height="8" rx="1" />
      <rect x="13" y="3" width="8" height="8" rx="1" />
      <rect x="3" y="13" width="8" height="8" rx="1" />
      <rect x="13" y="13" width="8" height="8" rx="1" />
    </LineIcon>
  );
}

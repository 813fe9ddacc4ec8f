// Small inline icons: a few hundred bytes each, no icon library in the bundle.

/**
 * An icon of `shapes` drawn in lines of the current colour (with round corners when `joinRound`),
 * hidden from assistive technology.
 */
function lineIcon(shapes: React.ReactNode, { size = 24, joinRound = false } = {}) {
  return function LineIcon() {
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
        {shapes}
      </svg>
    );
  };
}

export const SearchIcon = lineIcon(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </>,
  { size: 20 },
);

export const MenuIcon = lineIcon(<path d="M4 6h16M4 12h16M4 18h16" />);

// The cards of embeds' icons (components/Embed.tsx), with round corners.
export const CalendarIcon = lineIcon(
  <>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M3 10h18M8 3v4M16 3v4" />
  </>,
  { joinRound: true },
);

export const PhotosIcon = lineIcon(
  <>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 17-5-5-9 8" />
  </>,
  { joinRound: true },
);

export const PostsIcon = lineIcon(
  <>
    <rect x="3" y="3" width="8" height="8" rx="1" />
    <rect x="13" y="3" width="8" height="8" rx="1" />
    <rect x="3" y="13" width="8" height="8" rx="1" />
    <rect x="13" y="13" width="8" height="8" rx="1" />
  </>,
  { joinRound: true },
);

import { useEffect } from "react";

interface Props {
  title: string;
  text: string;
  /** Milliseconds before it goes by itself. */
  duration?: number;
  onClose: () => void;
}

/** A short confirmation in the corner, announced politely; it leaves by itself or when closed. */
export function Toast({ title, text, duration = 4500, onClose }: Props) {
  useEffect(() => {
    const timer = setTimeout(onClose, duration);
    return () => clearTimeout(timer);
  }, [duration, onClose]);
  return (
    <div
      role="status"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-sm items-start gap-3 rounded-lg bg-slate-900 p-4 text-white shadow-xl sm:right-4 sm:left-auto"
    >
      <div className="flex-1">
        <p className="font-bold">{title}</p>
        <p className="mt-1 text-sm">{text}</p>
      </div>
      <button
        type="button"
        onClick={onClose}
        className="rounded px-2 text-lg leading-none hover:bg-white/10"
        aria-label="Dismiss"
      >
        ×
      </button>
    </div>
  );
}

// How the real-photos audit writes its figures: sizes, times, ratios.

export const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
export const ms = (value) => `${Math.round(value)} ms`;
export const sortedNumbers = (values) => [...values].sort((a, b) => a - b);
/** A ratio as a signed percentage: 1.14 → "+14 %". */
export const percent = (ratio) =>
  `${ratio >= 1 ? "+" : "−"}${Math.abs((ratio - 1) * 100).toFixed(0)} %`;

/** Shown while a screen's code or data loads (spec part 1 §2: "Loading..."). */
export function Loading() {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading...
    </p>
  );
}

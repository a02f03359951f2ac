/**
 * A screen whose area is not built yet says plainly what will be there. `standalone`: a page of its
 * own, outside the dashboard's frame, so it is its own main landmark (inside the frame, the frame's
 * <main> holds it).
 */
export function Upcoming({ title, what, standalone = false }: { title: string; what: string; standalone?: boolean }) {
  const screen = (
    <section className="screen">
      <h1>{title}</h1>
      <p className="upcoming">{what}</p>
      <p className="muted">This screen arrives with its area; nothing here is lost or hidden in the meantime.</p>
    </section>
  );
  return standalone ? <main className="page">{screen}</main> : screen;
}

/** A screen whose area is not built yet says plainly what will be there. */
export function Upcoming({ title, what }: { title: string; what: string }) {
  return (
    <section className="screen">
      <h1>{title}</h1>
      <p className="upcoming">{what}</p>
      <p className="muted">This screen arrives with its area; nothing here is lost or hidden in the meantime.</p>
    </section>
  );
}

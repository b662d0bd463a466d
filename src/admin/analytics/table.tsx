// The analytics screen's table cells and its two works tables ('Œuvres les plus vendues', 'Œuvres
// les plus vues'), each a section titled like its chart neighbours.
import type { ReactNode } from 'react';
import { BODY_ROW, HEAD_ROW } from '../ui/table.tsx';

export const CELL = 'px-2 py-2 sm:px-3';
export const NUMBER = 'px-2 py-2 text-right whitespace-nowrap tabular-nums sm:px-3';
/** The back office's table rows (src/admin/ui/table.tsx), for the rows this screen draws itself. */
export const HEAD = HEAD_ROW;
export const ROW = BODY_ROW;

export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-3 py-4 text-black/70">
        {children}
      </td>
    </tr>
  );
}

export function WorksTable(props: {
  id: string;
  title: string;
  note?: string;
  empty: string | null;
  head: string[];
  children: ReactNode;
}) {
  const heading = `${props.id}-title`;
  return (
    <section
      aria-labelledby={heading}
      className="min-w-0 rounded-lg border border-black/10 bg-white p-4 md:p-5"
    >
      <h2 id={heading} className="font-serif text-xl">
        {props.title}
      </h2>
      {props.note ? <p className="mt-1 text-xs text-black/70">{props.note}</p> : null}
      {props.empty ? (
        <p className="mt-4 text-sm text-black/70">{props.empty}</p>
      ) : (
        // Scrolls sideways on a phone: a focusable region, so the keyboard can scroll it too.
        <div
          role="group"
          aria-labelledby={heading}
          tabIndex={0}
          className="mt-3 overflow-x-auto rounded border border-black/10"
        >
          <table className="w-full min-w-[18rem] text-left text-sm">
            <thead className={HEAD}>
              <tr>
                {props.head.map((name, index) => (
                  <th key={name} scope="col" className={index === 0 ? CELL : NUMBER}>
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{props.children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}

import { useId } from "react";
import type { OutsideLink } from "../../server/content/load";
import { SidebarBox } from "./SidebarBox";

interface Props {
  title: string;
  links: readonly OutsideLink[];
  /** Two columns from medium screens, for a full-width block; one column in a sidebar. */
  wide?: boolean;
}

/** A titled list of links to other sites, each with a line on what is there. */
export function OutsideLinks({ title, links, wide = false }: Props) {
  const id = useId();
  return (
    <SidebarBox id={id} title={title}>
      <ul className={`mt-3 grid gap-4 ${wide ? "md:grid-cols-2 lg:grid-cols-3" : ""}`}>
        {links.map((link) => (
          <li key={link.url}>
            <a
              href={link.url}
              rel="noopener noreferrer"
              className="font-semibold text-brand underline decoration-1 underline-offset-2 hover:decoration-2"
            >
              {link.label}
              <span aria-hidden="true">&nbsp;↗</span>
            </a>
            <p className="mt-1 text-sm text-slate-700">{link.description}</p>
          </li>
        ))}
      </ul>
    </SidebarBox>
  );
}

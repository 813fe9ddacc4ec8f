import { useId } from "react";

interface Props {
  title: string;
  children: React.ReactNode;
  className?: string;
}

/** A titled block of a page, labelled by its heading for assistive technology. */
export function Section({ title, children, className = "" }: Props) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`mb-8 ${className}`}>
      <h2 id={id} className="mb-3 text-2xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

interface Props {
  children: React.ReactNode;
  lead?: string;
}

export function PageHeading({ children, lead }: Props) {
  return (
    <div className="mb-6">
      <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{children}</h1>
      {lead ? <p className="mt-2 text-lg text-slate-700">{lead}</p> : null}
    </div>
  );
}

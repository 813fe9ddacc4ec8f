import { cloneElement, isValidElement, type ReactNode } from "react";

/** A labelled field with its error, the control given as the child (it gets the id). */
export function PostField(props: {
  label: string;
  name: string;
  error?: string;
  children: ReactNode;
}) {
  const id = `field-${props.name}`;
  const errorId = `${id}-error`;
  const child = props.children;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold">
        {props.label}
      </label>
      <ControlWithId id={id} errorId={props.error ? errorId : undefined}>
        {child}
      </ControlWithId>
      {props.error ? (
        <p id={errorId} className="text-sm text-red-800">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function ControlWithId(props: { id: string; errorId?: string; children: ReactNode }) {
  if (!isValidElement<Record<string, unknown>>(props.children)) return <>{props.children}</>;
  return cloneElement(props.children, {
    id: props.id,
    "aria-invalid": props.errorId ? true : undefined,
    "aria-describedby": props.errorId,
  });
}

import { useId, type ReactNode } from 'react';

/** A labelled text input: every control of the inspector has a visible label. */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name?: string;
  type?: 'text' | 'password' | 'number' | 'datetime-local' | 'search' | 'url';
  placeholder?: string;
  required?: boolean;
  hint?: ReactNode;
  autoFocus?: boolean;
  min?: number;
  max?: number;
  autoComplete?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        required={props.required}
        autoFocus={props.autoFocus}
        min={props.min}
        max={props.max}
        autoComplete={props.autoComplete}
        aria-describedby={props.hint === undefined ? undefined : hintId}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint === undefined ? null : (
        <small id={hintId} className="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}

/** A labelled select. */
export function SelectField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<string | { value: string; label: string }>;
  name?: string;
  /** A first, empty option, such as `any`. */
  empty?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} name={props.name} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.empty === undefined ? null : <option value="">{props.empty}</option>}
        {props.options.map((option) => {
          const { value, label } = typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** A labelled multi-line input. */
export function TextArea(props: { label: string; value: string; onChange: (value: string) => void; name?: string; rows?: number; required?: boolean }) {
  const id = useId();
  return (
    <div className="field field-wide">
      <label htmlFor={id}>{props.label}</label>
      <textarea id={id} name={props.name} rows={props.rows ?? 4} value={props.value} required={props.required} onChange={(event) => props.onChange(event.target.value)} />
    </div>
  );
}

/** A labelled checkbox. */
export function CheckField(props: { label: string; checked: boolean; onChange: (checked: boolean) => void; name?: string; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="field field-check">
      <input id={id} type="checkbox" name={props.name} checked={props.checked} disabled={props.disabled} onChange={(event) => props.onChange(event.target.checked)} />
      <label htmlFor={id}>{props.label}</label>
    </div>
  );
}

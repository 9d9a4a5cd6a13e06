import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  key: string;
  label: string;
  content: ReactNode;
  /** A marker beside the label (e.g. the panel holds a field with an error). */
  flagged?: boolean;
}

export interface TabsProps {
  items: readonly TabItem[];
  active: string;
  onChange: (key: string) => void;
  /** Accessible name of the tab list. */
  label: string;
}

/**
 * WAI-ARIA tabs: a tablist with roving focus (Left/Right, Home/End), each tab controlling its
 * panel. Inactive panels stay mounted but hidden, so form fields keep their state and registration.
 */
export function Tabs({ items, active, onChange, label }: TabsProps) {
  const base = useId();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  // Keys may hold spaces (they are group names); ids use the position instead.
  const indexOf = (key: string) => items.findIndex((i) => i.key === key);
  const tabId = (key: string) => `${base}-tab-${indexOf(key)}`;
  const panelId = (key: string) => `${base}-panel-${indexOf(key)}`;

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    const item = items[next];
    if (!item) return;
    onChange(item.key);
    refs.current.get(item.key)?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200">
        {items.map((item, i) => {
          const selected = item.key === active;
          return (
            <button
              key={item.key}
              ref={(el) => {
                if (el) refs.current.set(item.key, el);
                else refs.current.delete(item.key);
              }}
              id={tabId(item.key)}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={panelId(item.key)}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.key)}
              onKeyDown={(e) => onKeyDown(e, i)}
              className={`-mb-px inline-flex items-center gap-2 whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-medium transition-colors focus-visible:rounded-t-md focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-blue ${
                selected
                  ? 'border-blue-600 text-blue-700'
                  : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800'
              }`}
            >
              {item.label}
              {item.flagged && <span className="h-2 w-2 rounded-full bg-red-500" aria-hidden="true" />}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.key}
          id={panelId(item.key)}
          role="tabpanel"
          aria-labelledby={tabId(item.key)}
          hidden={item.key !== active}
          className="pt-6"
        >
          {item.content}
        </div>
      ))}
    </div>
  );
}

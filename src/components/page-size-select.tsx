import { useId } from 'react';
import { messages } from '../../contract/messages';
import { PAGE_SIZES } from '../../contract/enums';

/** 'Mostra:' with 5, 10, 20 (spec §9); a real label bound to a real select. */
export function PageSizeSelect({ value, onChange }: { value: number; onChange: (size: number) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-600">
        {messages.common.show}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-700 shadow-sm focus:border-brand-blue focus:ring-2 focus:ring-brand-blue/30 focus:outline-none"
      >
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

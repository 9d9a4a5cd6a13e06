/** The product mark (public/logo.svg) with its name. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="flex items-center gap-2.5">
      <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
      <span className={`text-lg font-semibold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>
        Rinnova
      </span>
    </span>
  );
}

/** A quota: used of total, as a bar and in words; no total means unlimited. */
export const Meter = ({
  label,
  used,
  total,
  format,
}: {
  label: string;
  used: number;
  total: number | null | undefined;
  format: (value: number) => string;
}) => {
  const limited = total !== null && total !== undefined && total > 0;
  const text = limited ? `${format(used)} of ${format(total)}` : `${format(used)} (no limit)`;
  return (
    <div className="meter">
      <div className="meter-label">
        <span>{label}</span>
        <span>{text}</span>
      </div>
      <meter
        aria-label={label}
        aria-valuetext={text}
        min={0}
        max={limited ? total : Math.max(used, 1)}
        value={used}
        low={limited ? total * 0.8 : undefined}
        high={limited ? total * 0.95 : undefined}
        optimum={0}
      />
    </div>
  );
};

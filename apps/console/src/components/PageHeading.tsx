import { useEffect, useRef } from 'react';

/** The page's h1: names the tab and takes the focus after a navigation, so keyboard and screen-reader users land on it. */
export const PageHeading = ({ children, title }: { children: React.ReactNode; title: string }) => {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Platform console`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
};

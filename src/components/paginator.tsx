import { useLayoutEffect, useRef } from 'react';
import ReactPaginateModule from 'react-paginate';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';
import { uiText } from './ui-text';
import { PHONE_QUERY, useMediaQuery } from '../lib/use-media-query';

/*
 * react-paginate ships CommonJS. Vite 8 can hand back the module object instead of the component
 * (blank page, React error #130); vite.config.ts sets legacy.inconsistentCjsInterop and this
 * unwraps the default anyway, so dev, build and vitest (Node's own interop) all get the component.
 */
const ReactPaginate =
  (ReactPaginateModule as unknown as { default?: typeof ReactPaginateModule }).default ?? ReactPaginateModule;

/** Spec §9: 2 margin pages, 5 pages in range. */
export const MARGIN_PAGES = 2;
export const PAGE_RANGE = 5;

export interface PaginatorProps {
  /** 1-based current page (the server's numbering). */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

const link =
  'inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-2 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 cursor-pointer select-none';

/** On a phone the links must fit one line of 390 px: 1 margin page and 3 in range there. */
const PHONE_MARGIN_PAGES = 1;
const PHONE_PAGE_RANGE = 3;

/** Page links (react-paginate, 0-based inside, 1-based outside), Italian labels. */
export function Paginator({ page, pageCount, onPageChange }: PaginatorProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  const nav = useRef<HTMLElement>(null);
  // react-paginate renders its <ul> with role="navigation" and an English label, which leaves its
  // <li> items without a list (axe 'listitem'): the <nav> around it is the landmark, the <ul> a list.
  useLayoutEffect(() => {
    const list = nav.current?.querySelector('ul');
    list?.setAttribute('role', 'list');
    list?.removeAttribute('aria-label');
  });
  if (pageCount < 1) return null;
  return (
    <nav ref={nav} aria-label={uiText.pagination}>
      <ReactPaginate
        pageCount={pageCount}
        forcePage={Math.min(Math.max(page, 1), pageCount) - 1}
        onPageChange={({ selected }) => onPageChange(selected + 1)}
        marginPagesDisplayed={phone ? PHONE_MARGIN_PAGES : MARGIN_PAGES}
        pageRangeDisplayed={phone ? PHONE_PAGE_RANGE : PAGE_RANGE}
        previousLabel={<ChevronLeftIcon />}
        nextLabel={<ChevronRightIcon />}
        previousAriaLabel={uiText.previousPage}
        nextAriaLabel={uiText.nextPage}
        // The typings say (page, selectedPage: number); at run time the second argument is 'is current'.
        ariaLabelBuilder={(p: number, current: unknown) => uiText.pageLink(p, current === true)}
        breakAriaLabels={{ forward: uiText.jumpForward, backward: uiText.jumpBackward }}
        breakLabel="…"
        containerClassName="flex flex-wrap items-center gap-1"
        pageLinkClassName={link}
        previousLinkClassName={link}
        nextLinkClassName={link}
        breakLinkClassName={`${link} text-slate-500`}
        activeLinkClassName="!bg-brand-ink !text-white shadow-sm hover:!bg-blue-800"
        disabledLinkClassName="!cursor-not-allowed opacity-40 hover:!bg-transparent"
        renderOnZeroPageCount={null}
      />
    </nav>
  );
}

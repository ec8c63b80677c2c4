/** Page size of the administration lists; the envelope's count gives the total. */
export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

/** Spec §9: the instrument list shows 100 a page by default. */
export const IPP_PAGE_SIZE = 100;
export const IPP_PAGE_SIZE_OPTIONS = [20, 50, 100, 200];

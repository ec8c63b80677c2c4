/** How an endpoint is written: its method and path, with literal types (endpoints/*.ts). */
export const get = <P extends string>(path: P) => ({ method: 'GET', path }) as const;
export const post = <P extends string>(path: P) => ({ method: 'POST', path }) as const;
export const postRoot = <P extends string>(path: P) => ({ method: 'POST', path, root: true }) as const;

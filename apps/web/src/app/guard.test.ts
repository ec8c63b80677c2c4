import { describe, expect, it } from 'vitest';
import { canAccess, decideAccess, type AccessRequest } from './guard';

const ADMINS = ['superadmin', 'administrator'] as const;

function request(overrides: Partial<AccessRequest>): AccessRequest {
  return { pathname: '/home', search: '', token: 'tok', role: 'user', routeRoles: undefined, ...overrides };
}

describe('decideAccess', () => {
  it('always allows /login, signed in or not', () => {
    expect(decideAccess(request({ pathname: '/login', token: null, role: null }))).toEqual({ kind: 'allow' });
    expect(decideAccess(request({ pathname: '/login' }))).toEqual({ kind: 'allow' });
  });

  it('sends a visitor without a token to /login with the page as redirect', () => {
    expect(decideAccess(request({ pathname: '/manage/ipp', token: null, role: null }))).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fmanage%2Fipp',
    });
  });

  it('keeps the query in the redirect but never a token', () => {
    expect(decideAccess(request({ pathname: '/ipp/ipp-view-detail', search: '?id=3', token: null, role: null }))).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fipp%2Fipp-view-detail%3Fid%3D3',
    });
  });

  it('needs both id and token in the query for a deep link', () => {
    expect(decideAccess(request({ search: '?token=abc', token: null, role: null })).kind).toBe('redirect');
    expect(decideAccess(request({ search: '?id=7', token: null, role: null })).kind).toBe('redirect');
  });

  it('lets a deep link with id and token in, adopting its token', () => {
    expect(decideAccess(request({ search: '?id=7&token=abc', token: null, role: null }))).toEqual({
      kind: 'adopt-token',
      token: 'abc',
    });
  });

  it('sends a stored token without a stored role to /login', () => {
    expect(decideAccess(request({ role: null }))).toEqual({ kind: 'redirect', to: '/login' });
  });

  it.each(ADMINS)('lets %s through every route, listed or not', (role) => {
    expect(decideAccess(request({ role, routeRoles: undefined }))).toEqual({ kind: 'allow' });
    expect(decideAccess(request({ role, routeRoles: ['user'] }))).toEqual({ kind: 'allow' });
    expect(decideAccess(request({ role, routeRoles: [] }))).toEqual({ kind: 'allow' });
  });

  it('lets other roles through routes without a role list', () => {
    expect(decideAccess(request({ role: 'user', routeRoles: undefined }))).toEqual({ kind: 'allow' });
  });

  it('lets other roles through routes whose list includes them', () => {
    expect(decideAccess(request({ role: 'user', routeRoles: ['user'] }))).toEqual({ kind: 'allow' });
  });

  it('sends other roles to /403 when the route list leaves them out', () => {
    expect(decideAccess(request({ role: 'user', routeRoles: ADMINS }))).toEqual({ kind: 'redirect', to: '/403' });
    expect(decideAccess(request({ role: 'guest', routeRoles: ['user'] }))).toEqual({ kind: 'redirect', to: '/403' });
  });
});

describe('canAccess', () => {
  it('denies when no role is known', () => {
    expect(canAccess(null, undefined)).toBe(false);
  });
});

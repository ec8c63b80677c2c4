import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { getUserInfo, userInfoQueryKey } from '@/api/get-user-info';
import { PageLoading } from '@/components/page-loading';
import { loginPathFor } from '@/lib/redirect';
import { setSession } from '@/lib/session';

/**
 * A deep link (?id=…&token=…) signs in with its token: user-info supplies the role, and only then is
 * the session stored, so the guard never sees a token without a role. The token then leaves the URL.
 */
export function DeepLinkSignIn({ token }: { token: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userInfo = useQuery({
    queryKey: ['deep-link', token],
    queryFn: ({ signal }) => getUserInfo({ token, signal }),
    retry: false,
    gcTime: 0,
  });
  const user = userInfo.data;

  useEffect(() => {
    if (!user) return;
    queryClient.setQueryData(userInfoQueryKey, user);
    setSession({ token, role: user.role, demo: user.demo });
    const params = new URLSearchParams(location.search);
    params.delete('token');
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [user, token, queryClient, navigate, location.pathname, location.search]);

  if (userInfo.isError) return <Navigate to={loginPathFor(location.pathname, location.search)} replace />;
  return <PageLoading fullscreen />;
}

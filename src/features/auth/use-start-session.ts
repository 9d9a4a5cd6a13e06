import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { LoginResponse } from '../../../contract/schemas/auth';
import { startSession } from '../../lib/session';

/** After a session answer (Login, its second step, a sign-in link): token and user stored, cache cleared, home. */
export function useStartSession() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (data: LoginResponse) => {
    queryClient.clear();
    startSession(data.token, data.user);
    navigate('/', { replace: true });
  };
}

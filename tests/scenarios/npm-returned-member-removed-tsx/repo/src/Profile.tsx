import React from 'react';
import { useQuery } from 'querykit';
import { fetchProfile } from './api';

export function Profile({ user }: { user: string }) {
  const profile = useQuery({ queryKey: ['profile', user], queryFn: () => fetchProfile(user) });
  const remove = (id: string) => console.log('not the query', id);

  return <h1 onClick={() => remove(user)}>{profile.data?.name}</h1>;
}

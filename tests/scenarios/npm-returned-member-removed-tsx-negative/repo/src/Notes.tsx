import React from 'react';
import { useQuery, useQueryClient } from 'querykit';
import { fetchNotes } from './api';

export function Notes({ user }: { user: string }) {
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: ['notes', user], queryFn: () => fetchNotes(user) });
  const remove = () => queryClient.removeQueries({ queryKey: ['notes', user] });

  return (
    <section>
      <button type="button" onClick={() => remove()}>Forget</button>
      <ul>{(data ?? []).map((n) => <li key={n.id}>{n.title}</li>)}</ul>
    </section>
  );
}

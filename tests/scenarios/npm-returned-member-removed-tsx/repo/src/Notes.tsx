import React from 'react';
import { useQuery } from 'querykit';
import { fetchNotes } from './api';

export function Notes({ user }: { user: string }) {
  const { data, remove } = useQuery({ queryKey: ['notes', user], queryFn: () => fetchNotes(user) });

  return (
    <section>
      <button type="button" onClick={() => remove()}>Forget</button>
      <ul>{(data ?? []).map((n) => <li key={n.id}>{n.title}</li>)}</ul>
    </section>
  );
}

export async function fetchNotes(user: string) {
  const res = await fetch(`/api/users/${user}/notes`);
  return (await res.json()) as { id: string; title: string }[];
}

export async function fetchProfile(user: string) {
  const res = await fetch(`/api/users/${user}`);
  return (await res.json()) as { name: string };
}

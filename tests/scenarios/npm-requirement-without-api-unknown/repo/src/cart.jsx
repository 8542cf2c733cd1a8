import React from 'react';
import { useStore } from 'tidy-store';

export function Cart() {
  const items = useStore((s) => s.items);
  return <ul>{items.map((i) => <li key={i.id}>{i.name}</li>)}</ul>;
}

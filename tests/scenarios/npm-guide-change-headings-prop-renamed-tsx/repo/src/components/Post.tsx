import React from 'react';
import Markdown from 'mdview';

type Props = { title: string; body: string };

export function Post({ title, body }: Props) {
  return (
    <article>
      <h1>{title}</h1>
      <Markdown source={body} linkTarget="_blank" />
    </article>
  );
}

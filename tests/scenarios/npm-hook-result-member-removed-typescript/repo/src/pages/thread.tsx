import useData from 'datahook';

interface Post { id: string; title: string }

export default function Thread({ id }: { id: string }) {
  const { data: post, error, revalidate } = useData<Post>(
    id ? `/api/posts/${id}` : null,
  );
  if (error) return <p>failed</p>;
  return (
    <article>
      <h1>{post?.title}</h1>
      <button onClick={() => revalidate()}>refresh</button>
    </article>
  );
}

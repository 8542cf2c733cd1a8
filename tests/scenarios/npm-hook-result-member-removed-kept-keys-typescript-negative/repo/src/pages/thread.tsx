import useData from 'datahook';

interface Post { id: string; title: string }

export default function Thread({ id }: { id: string }) {
  // revalidate() used to refresh the post; mutate() does the same now
  const { data: post, error, mutate } = useData<Post>(
    id ? `/api/posts/${id}` : null,
  );
  if (error) return <p>failed</p>;
  return (
    <article>
      <h1>{post?.title}</h1>
      <button onClick={() => mutate()}>refresh</button>
    </article>
  );
}

import React from 'react';
import { useForm } from 'formhooks';

type Values = { email: string; password: string };

export function SignupForm({ onSave }: { onSave: (v: Values) => void }) {
  const { register, handleSubmit, watchAll } = useForm<Values>();
  const current = watchAll();
  return (
    <form onSubmit={handleSubmit(onSave)}>
      <input {...register('email')} />
      <input type="password" {...register('password')} />
      <p>{current.email}</p>
    </form>
  );
}
